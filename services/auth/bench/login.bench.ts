/* eslint-disable no-restricted-properties -- a benchmark script reads its own knobs from the environment */
// Login throughput vs raw argon2id verify/s at the same parameters, then p99 under twice the sustainable load.
//   node --import tsx services/auth/bench/login.bench.ts
// Env: BENCH_DATABASE_URL (a server admin URL; default TEST_DATABASE_URL or postgres://root@127.0.0.1:5432/postgres),
//      BENCH_SECONDS (default 8), LOGIN_STALL_TIME for phase 2 (default 500),
//      BENCH_PROFILE=/tmp/dir: a CPU profile of the server's main thread during the capacity phase,
//      HASH_CONCURRENCY / HASH_QUEUE_LIMIT: the server's hashing limiter (default: the number of CPUs / 32 × that).
// The load generators run in their own process, as real clients do (autocannon for capacity, an open-loop
// schedule for the overload phase); the server runs here. Besides
// req/s (which moves with whatever else shares the cores), the CPU actually spent per login is read from /proc:
// this process's main thread (JavaScript, sockets), its libuv pool (argon2) and the PostgreSQL backends.
import { cpus, loadavg } from 'node:os';
import { hash, verify, type Algorithm } from '@node-rs/argon2';
import { Client } from 'pg';
import { databaseUrl, dropDatabase, ensureDatabases, migrate } from '@vellum/db';
import { listen } from '@vellum/http';
import { createLogger } from '@vellum/logger';
import { autocannon, type LoadResult } from '../../../bench/autocannon';
import { openLoop, type OpenLoopResult } from '../../../bench/open-loop';
import { createApp } from '../src/app';
import { loadAuthConfig } from '../src/config';
import { createPrisma } from '../src/data/prisma';
import { bootstrap } from '../src/domain/bootstrap';
import { MIGRATIONS_DIR } from '../src/start';
import { cpuSnapshot, cpuSpent, type CpuSpent } from './cpu-meter';
import { profiled } from './profile';

const admin = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/postgres';
const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const params = { memoryCost: 19456, timeCost: 2, parallelism: 1, algorithm: 2 as Algorithm };
const workers = cpus().length;
const load = () => loadavg().map((x) => x.toFixed(2)).join(' ');
const ms = (us: number) => (us / 1000).toFixed(2);

async function rawVerifyRate(): Promise<{ rate: number; cpuPerVerify: number }> {
  const h = await hash('bench-password-1', params);
  let n = 0;
  const end = Date.now() + seconds * 1000;
  const t0 = Date.now();
  const c0 = process.cpuUsage();
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (Date.now() < end) {
        await verify(h, 'bench-password-1');
        n++;
      }
    }),
  );
  const c = process.cpuUsage(c0);
  return { rate: n / ((Date.now() - t0) / 1000), cpuPerVerify: (c.user + c.system) / n };
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
    ...(process.env.HASH_CONCURRENCY ? { HASH_CONCURRENCY: process.env.HASH_CONCURRENCY } : {}),
    ...(process.env.HASH_QUEUE_LIMIT ? { HASH_QUEUE_LIMIT: process.env.HASH_QUEUE_LIMIT } : {}),
  });
  const db = createPrisma(url, 10);
  const built = createApp({ db, config, logger: createLogger({ name: 'bench', level: 'error' }) });
  await bootstrap(built.ctx);
  const server = await listen(built.app, 0);
  const probe = new Client({ connectionString: url });
  await probe.connect();
  const backends = async () =>
    (await probe.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = current_database()')).rows.map((r) => r.pid);
  return {
    url: server.url,
    hasher: built.ctx.hasher,
    /** Closed-loop load (autocannon: `connections` each waiting for its answer) for `seconds`, with the CPU it cost here and in PostgreSQL. */
    measure: async (opts: { connections: number; seconds: number }): Promise<{ r: LoadResult; cpu: CpuSpent }> => {
      const before = cpuSnapshot(await backends());
      const r = await autocannon(`${server.url}/auth/login`, { ...opts, method: 'POST', body });
      const cpu = cpuSpent(before, cpuSnapshot(await backends()));
      return { r, cpu };
    },
    /** Open-loop load: `rate` logins per second offered on a fixed schedule, answered or not. */
    offer: async (opts: { rate: number; seconds: number }): Promise<{ r: OpenLoopResult; cpu: CpuSpent }> => {
      const before = cpuSnapshot(await backends());
      const r = await openLoop(`${server.url}/auth/login`, { ...opts, method: 'POST', body });
      const cpu = cpuSpent(before, cpuSnapshot(await backends()));
      return { r, cpu };
    },
    close: async () => {
      await new Promise((r) => setTimeout(r, 3000)); // the answers the load generator stopped waiting for
      await probe.end();
      await server.close(15_000);
      await built.close();
      await db.$disconnect();
      dropLater.push(name);
    },
  };
}

const dropLater: string[] = [];
const body = JSON.stringify({ email: 'bench@vellum.local', password: 'bench-password-1' });

async function main() {
  console.log(`cpus ${workers}, argon2id m=${params.memoryCost} KiB t=${params.timeCost} p=${params.parallelism}, ${seconds}s per phase`);
  console.log(`load average before: ${load()}`);
  const raw = await rawVerifyRate();
  console.log(`raw argon2id verify:            ${raw.rate.toFixed(1)} /s (${workers} in parallel), ${ms(raw.cpuPerVerify)} ms CPU per verify`);

  // Phase 1: capacity (the stall only delays answers; it costs no CPU, so it is left out of the capacity run)
  const s1 = await serve('0');
  await s1.measure({ connections: workers * 4, seconds: 2 }); // warm-up: JIT, pool connections, prepared statements
  const { r: cap, cpu } = await profiled(process.env.BENCH_PROFILE, 'login-capacity', () => s1.measure({ connections: workers * 4, seconds }));
  await s1.close();
  const rate = cap.total / seconds;
  console.log(
    `login (json, correct password):  ${rate.toFixed(1)} req/s = ${(rate / raw.rate).toFixed(2)}× raw verify; ` +
      `p50 ${cap.p50} ms, p99 ${cap.p99} ms, non-2xx ${cap.non2xx}, errors ${cap.errors}`,
  );
  const n = cap.total;
  const perLogin = (cpu.process + cpu.db) / n;
  console.log(
    `CPU per login: ${ms(perLogin)} ms = argon2 pool ${ms(cpu.pool / n)} + main thread ${ms(cpu.main / n)} (kernel ${ms(cpu.mainKernel / n)})` +
      ` + PostgreSQL ${ms(cpu.db / n)} (raw verify ${ms(raw.cpuPerVerify)}: CPU-bound ratio ${(raw.cpuPerVerify / perLogin).toFixed(2)}×);` +
      ` the load generator ${ms(cap.cpu / n)} ms per request`,
  );

  // Phase 2: twice the sustainable rate, with the real stall time; excess must be shed (503), latency bounded
  const stall = process.env.LOGIN_STALL_TIME ?? '500';
  const s2 = await serve(stall);
  const offered = Math.round(rate * 2);
  const { r: over, cpu: oc } = await s2.offer({ rate: offered, seconds });
  const shed = s2.hasher.limiter.shed;
  await s2.close();
  const st = (c: string) => over.status[c] ?? 0;
  const other = over.sent - st('200') - st('503') - st('429');
  console.log(
    `overload ${offered} req/s offered (open loop, stall ${stall} ms): ${(st('200') / seconds).toFixed(1)} ok/s, shed ${st('503')} (503)` +
      `${st('429') ? ` + ${st('429')} (429)` : ''} [limiter: ${shed}], every answer: p50 ${over.p50} ms, p99 ${over.p99} ms, max ${over.max} ms` +
      `${other ? `, other/errors ${other}` : ''}`,
  );
  const cores = (us: number) => (us / 1e6 / seconds).toFixed(2);
  console.log(
    `overload CPU (cores): argon2 pool ${cores(oc.pool)}, main thread ${cores(oc.main)}, PostgreSQL ${cores(oc.db)}, load generator ${cores(over.cpu)}`,
  );
  console.log(`load average after: ${load()}`);
  await new Promise((r) => setTimeout(r, 500));
  for (const name of dropLater) await dropDatabase(admin, name).catch(() => undefined);
  process.exit(0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
