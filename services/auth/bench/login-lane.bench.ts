/* eslint-disable no-restricted-properties -- a benchmark script reads its own knobs from the environment */
// CPU per login, A/B in one process: the same auth app served by express (`createServer(app)`) and by its
// `serviceListener` (`listen`: POST /auth/login a fast route on bare node:http), in alternating rounds. argon2 is
// made cheap (m = 1 MiB, t = 1: not the service's parameters, which its config refuses) so the rest of a login —
// the part that differs — is not drowned in the verify's noise.
//   node --import tsx services/auth/bench/login-lane.bench.ts
// Env: BENCH_DATABASE_URL (default TEST_DATABASE_URL or postgres://root@127.0.0.1:5432/postgres),
//      BENCH_SECONDS (per phase, default 4), BENCH_ROUNDS (default 6),
//      BENCH_PROFILE=/tmp/dir: then one more lane phase under the V8 CPU profiler (<dir>/login-lane.cpuprofile).
import { createServer } from 'node:http';
import { loadavg } from 'node:os';
import { Client } from 'pg';
import { databaseUrl, dropDatabase, ensureDatabases, migrate } from '@vellum/db';
import { listen } from '@vellum/http';
import { createLogger } from '@vellum/logger';
import { autocannon } from '../../../bench/autocannon';
import { createApp } from '../src/app';
import { loadAuthConfig } from '../src/config';
import { createPrisma } from '../src/data/prisma';
import { bootstrap } from '../src/domain/bootstrap';
import { PasswordHasher } from '../src/domain/password-hasher';
import { MIGRATIONS_DIR } from '../src/start';
import { cpuSnapshot, cpuSpent } from './cpu-meter';
import { profiled } from './profile';

const admin = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/postgres';
const seconds = Number(process.env.BENCH_SECONDS ?? 4);
const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 6));
const body = JSON.stringify({ email: 'bench@vellum.local', password: 'bench-password-1' });
const us = (x: number) => x.toFixed(0).padStart(5);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main() {
  console.log(`load average before: ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  const name = `vellum_auth_lane_${Date.now().toString(36)}`;
  await ensureDatabases(admin, [name]);
  const url = databaseUrl(admin, name);
  await migrate({ connectionString: url, migrationsDir: MIGRATIONS_DIR });
  const config = loadAuthConfig({ DATABASE_URL: url, LOGIN_STALL_TIME: '0', RATE_LIMITER_ENABLED: 'false', ADMIN_EMAIL: 'bench@vellum.local', ADMIN_PASSWORD: 'bench-password-1' });
  const db = createPrisma(url, 10);
  const hasher = new PasswordHasher({ memoryKib: 1024, iterations: 1, parallelism: 1 });
  const built = createApp({ db, config, hasher, logger: createLogger({ name: 'bench', level: 'error' }) });
  await bootstrap(built.ctx);
  const expressServer = createServer(built.app);
  await new Promise<void>((r) => expressServer.listen(0, '127.0.0.1', r));
  const viaExpress = `http://127.0.0.1:${(expressServer.address() as { port: number }).port}`;
  const lane = await listen(built.app, 0);
  const probe = new Client({ connectionString: url });
  await probe.connect();
  const backends = async () =>
    (await probe.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()')).rows.map((r) => r.pid);
  const measure = async (base: string, s: number) => {
    const before = cpuSnapshot(await backends());
    const r = await autocannon(`${base}/auth/login`, { connections: 8, seconds: s, method: 'POST', body });
    const c = cpuSpent(before, cpuSnapshot(await backends()));
    if (r.non2xx || r.errors) throw new Error(`non-2xx ${r.non2xx}, errors ${r.errors}`);
    return { n: r.total, main: c.main / r.total, pool: c.pool / r.total, db: c.db / r.total };
  };
  await measure(viaExpress, 2);
  await measure(lane.url, 2);
  const ratios: number[] = [];
  const sums = { express: { main: 0, n: 0 }, lane: { main: 0, n: 0 } };
  for (let round = 1; round <= rounds; round++) {
    const order = round % 2 ? (['express', 'lane'] as const) : (['lane', 'express'] as const);
    const got: Record<string, Awaited<ReturnType<typeof measure>>> = {};
    for (const which of order) {
      got[which] = await measure(which === 'express' ? viaExpress : lane.url, seconds);
      sums[which].main += got[which].main * got[which].n;
      sums[which].n += got[which].n;
    }
    const e = got.express!;
    const l = got.lane!;
    ratios.push(l.main / e.main);
    console.log(
      `round ${round}: µs CPU per login — express: main ${us(e.main)}, pool ${us(e.pool)}, PostgreSQL ${us(e.db)} (${(e.n / seconds).toFixed(0)}/s); ` +
        `lane: main ${us(l.main)}, pool ${us(l.pool)}, PostgreSQL ${us(l.db)} (${(l.n / seconds).toFixed(0)}/s); lane ÷ express main ${(l.main / e.main).toFixed(2)}×`,
    );
  }
  if (process.env.BENCH_PROFILE) await profiled(process.env.BENCH_PROFILE, 'login-lane', () => measure(lane.url, seconds));
  const all = (w: 'express' | 'lane') => sums[w].main / sums[w].n;
  console.log(`main-thread CPU per login: express ${us(all('express'))} µs, lane ${us(all('lane'))} µs; lane ÷ express ${(all('lane') / all('express')).toFixed(2)}× (rounds' median ${median(ratios).toFixed(2)}×: ${ratios.map((r) => r.toFixed(2)).join(', ')})`);
  console.log(`load average after: ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  await probe.end();
  await lane.close(2000);
  await new Promise((r) => expressServer.close(r));
  expressServer.closeAllConnections();
  await built.close();
  await db.$disconnect();
  await dropDatabase(admin, name).catch(() => undefined);
  process.exit(0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
