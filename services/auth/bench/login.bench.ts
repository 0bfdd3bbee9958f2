/* eslint-disable no-restricted-properties -- a benchmark script reads its own knobs from the environment */
// Login throughput vs raw argon2id verify/s at the same parameters, then p99 under twice the sustainable load.
//   node --import tsx services/auth/bench/login.bench.ts
// Env: BENCH_DATABASE_URL (a server admin URL; default TEST_DATABASE_URL or postgres://root@127.0.0.1:5432/postgres),
//      BENCH_SECONDS (default 8), LOGIN_STALL_TIME for phase 2 (default 500).
import { cpus } from 'node:os';
import autocannon from 'autocannon';
import { hash, verify, type Algorithm } from '@node-rs/argon2';
import { databaseUrl, dropDatabase, ensureDatabases, migrate } from '@vellum/db';
import { listen } from '@vellum/http';
import { createLogger } from '@vellum/logger';
import { createApp } from '../src/app';
import { loadAuthConfig } from '../src/config';
import { createPrisma } from '../src/data/prisma';
import { bootstrap } from '../src/domain/bootstrap';
import { MIGRATIONS_DIR } from '../src/start';

const admin = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/postgres';
const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const params = { memoryCost: 19456, timeCost: 2, parallelism: 1, algorithm: 2 as Algorithm };
const workers = cpus().length;

async function rawVerifyRate(): Promise<number> {
  const h = await hash('bench-password-1', params);
  let n = 0;
  const end = Date.now() + seconds * 1000;
  const t0 = Date.now();
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (Date.now() < end) {
        await verify(h, 'bench-password-1');
        n++;
      }
    }),
  );
  return n / ((Date.now() - t0) / 1000);
}

async function serve(stall: string) {
  const name = `vellum_auth_bench_${Date.now().toString(36)}`;
  await ensureDatabases(admin, [name]);
  const url = databaseUrl(admin, name);
  await migrate({ connectionString: url, migrationsDir: MIGRATIONS_DIR });
  const config = loadAuthConfig({
    DATABASE_URL: url,
    LOGIN_STALL_TIME: stall,
    RATE_LIMITER_ENABLED: 'false',
    ADMIN_EMAIL: 'bench@vellum.local',
    ADMIN_PASSWORD: 'bench-password-1',
  });
  const db = createPrisma(url, 10);
  const built = createApp({ db, config, logger: createLogger({ name: 'bench', level: 'error' }) });
  await bootstrap(built.ctx);
  const server = await listen(built.app, 0);
  return {
    url: server.url,
    hasher: built.ctx.hasher,
    close: async () => {
      await server.close(15_000);
      await built.close();
      await db.$disconnect();
      dropLater.push(name);
    },
  };
}

const dropLater: string[] = [];
const body = JSON.stringify({ email: 'bench@vellum.local', password: 'bench-password-1' });
const run = (url: string, opts: Partial<autocannon.Options>) =>
  autocannon({
    url: `${url}/auth/login`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
    duration: seconds,
    ...opts,
  });

async function main() {
  console.log(`cpus ${workers}, argon2id m=${params.memoryCost} KiB t=${params.timeCost} p=${params.parallelism}, ${seconds}s per phase`);
  const raw = await rawVerifyRate();
  console.log(`raw argon2id verify:            ${raw.toFixed(1)} /s (${workers} in parallel)`);

  // Phase 1: capacity (the stall only delays answers; it costs no CPU, so it is left out of the capacity run)
  const s1 = await serve('0');
  const cap = await run(s1.url, { connections: workers * 4 });
  await s1.close();
  const rate = cap.requests.average;
  console.log(
    `login (json, correct password):  ${rate.toFixed(1)} req/s = ${(rate / raw).toFixed(2)}× raw verify; ` +
      `p50 ${cap.latency.p50} ms, p99 ${cap.latency.p99} ms, non-2xx ${cap.non2xx}`,
  );

  // Phase 2: twice the sustainable rate, with the real stall time; excess must be shed (503), latency bounded
  const stall = process.env.LOGIN_STALL_TIME ?? '500';
  const s2 = await serve(stall);
  const offered = Math.round(rate * 2);
  const over = await run(s2.url, { connections: Math.max(64, Math.round(offered * (Number(stall) / 1000 + 0.5))), overallRate: offered });
  const shed = s2.hasher.limiter.shed;
  await s2.close();
  const ok = over['2xx'];
  console.log(
    `overload ${offered} req/s offered (stall ${stall} ms): ${(ok / seconds).toFixed(1)} ok/s, shed ${shed} (503), ` +
      `p50 ${over.latency.p50} ms, p99 ${over.latency.p99} ms, max ${over.latency.max} ms, errors ${over.errors}, timeouts ${over.timeouts}`,
  );
  await new Promise((r) => setTimeout(r, 500));
  for (const name of dropLater) await dropDatabase(admin, name).catch(() => undefined);
  process.exit(0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
