/* eslint-disable no-restricted-properties -- a benchmark script reads its own knobs from the environment */
// Login throughput vs raw argon2id verify/s at the same parameters, then p99 under twice the sustainable load.
//   node --import tsx services/auth/bench/login.bench.ts
// Env: BENCH_THREADS=1 (CPU per request of each thread of this process, floor and login),
//      BENCH_DATABASE_URL (a server admin URL; default TEST_DATABASE_URL or postgres://root@127.0.0.1:5432/postgres),
//      BENCH_SECONDS (default 5), BENCH_ROUNDS (default 5), LOGIN_STALL_TIME for phase 2 (default 500),
//      BENCH_PROFILE=/tmp/dir: a CPU profile of the server's main thread during the capacity phase,
//      HASH_CONCURRENCY / HASH_QUEUE_LIMIT: the server's hashing limiter (default: the number of CPUs / 32 × that).
// The load generators run in their own process, as real clients do (autocannon for capacity, an open-loop
// schedule for the overload phase); the server runs here. Besides
// req/s (which moves with whatever else shares the cores), the CPU actually spent per login is read from /proc:
// this process's main thread (JavaScript, sockets), its libuv pool (argon2) and the PostgreSQL backends.
// Raw verify and login are measured in BENCH_ROUNDS interleaved rounds (raw, login, raw, login, …) and the median
// of the per-round ratios is the result: on this shared VM the same argon2 work costs up to ~40% more CPU from one
// minute to the next, so a raw rate and a login rate measured minutes apart are not comparable.
import { readdirSync } from 'node:fs';
import { createServer } from 'node:http';
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
import { procTimes } from '../../../bench/proc-cpu';
import { cpuSnapshot, cpuSpent, type CpuSpent } from './cpu-meter';
import { profiled } from './profile';

const admin = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/postgres';
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 5));
const params = { memoryCost: 19456, timeCost: 2, parallelism: 1, algorithm: 2 as Algorithm };
const workers = cpus().length;
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
const ms = (us: number) => (us / 1000).toFixed(2);
/** BENCH_THREADS=1: CPU µs of each of this process's threads (by tid) — which threads besides argon2's do the work. */
const threadCpu = () =>
  new Map(
    readdirSync(`/proc/${process.pid}/task`).map((tid) => {
      const [u, s] = procTimes(`/proc/${process.pid}/task/${tid}/stat`);
      return [Number(tid), u + s] as const;
    }),
  );
const threadLine = (a: Map<number, number>, b: Map<number, number>, n: number) =>
  [...b]
    .map(([tid, us]) => [tid, us - (a.get(tid) ?? 0)] as const)
    .filter(([, us]) => us > 0)
    .map(([tid, us]) => `${tid === process.pid ? 'main' : tid} ${ms(us / n)}`)
    .join(', ');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

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

/**
 * The floor of any login on this machine: a bare node:http endpoint that reads the JSON body and verifies the
 * password with the same argon2 parameters and the same number in flight — no database, no token, no framework.
 * Login cannot be faster than this; its ratio to raw verify bounds what any implementation can reach here.
 */
async function serveFloor(): Promise<{ url: string; close(): Promise<void> }> {
  const stored = await hash('bench-password-1', params);
  let active = 0;
  const waiting: (() => void)[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const { password } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { password: string };
      if (active >= workers) await new Promise<void>((r) => waiting.push(r));
      else active++;
      const ok = await verify(stored, password);
      const next = waiting.shift();
      if (next) next();
      else active--;
      const out = JSON.stringify({ data: { ok } });
      res.writeHead(ok ? 200 : 401, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(out) }).end(out);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(() => r())) };
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
  // Phase 1: capacity (the stall only delays answers; it costs no CPU, so it is left out of the capacity run),
  // interleaved with raw verify at the same parameters
  const s1 = await serve('0');
  await s1.measure({ connections: workers * 4, seconds: 2 }); // warm-up: JIT, pool connections, prepared statements
  const floor = await serveFloor();
  const floorRatios: number[] = [];
  const loginToFloor: number[] = [];
  const floorCpu: CpuSpent = { process: 0, main: 0, mainKernel: 0, pool: 0, db: 0 };
  let floorN = 0;
  const ratios: number[] = [];
  const rates: number[] = [];
  let rawCpu = 0;
  let rawN = 0;
  let n = 0;
  const cpu: CpuSpent = { process: 0, main: 0, mainKernel: 0, pool: 0, db: 0 };
  let generatorCpu = 0;
  for (let round = 1; round <= rounds; round++) {
    const raw = await rawVerifyRate();
    const f0 = cpuSnapshot([]);
    const t0 = process.env.BENCH_THREADS ? threadCpu() : undefined;
    const fl = await autocannon(`${floor.url}/auth/login`, { connections: workers * 4, seconds, method: 'POST', body });
    const fc = cpuSpent(f0, cpuSnapshot([]));
    const t1 = t0 && threadCpu();
    for (const k of Object.keys(floorCpu) as (keyof CpuSpent)[]) floorCpu[k] += fc[k];
    floorN += fl.total;
    floorRatios.push(fl.total / seconds / raw.rate);
    const { r: cap, cpu: c } = await profiled(round === 1 ? process.env.BENCH_PROFILE : undefined, 'login-capacity', () =>
      s1.measure({ connections: workers * 4, seconds }),
    );
    if (t0 && t1) {
      console.log(`  threads, ms CPU per floor request: ${threadLine(t0, t1, fl.total)}`);
      console.log(`  threads, ms CPU per login: ${threadLine(t1, threadCpu(), cap.total)}`);
    }
    const rate = cap.total / seconds;
    ratios.push(rate / raw.rate);
    loginToFloor.push(rate / (fl.total / seconds));
    rates.push(rate);
    rawCpu += raw.cpuPerVerify * raw.rate;
    rawN += raw.rate;
    n += cap.total;
    for (const k of Object.keys(cpu) as (keyof CpuSpent)[]) cpu[k] += c[k];
    generatorCpu += cap.cpu;
    console.log(
      `round ${round}: raw argon2id verify ${raw.rate.toFixed(1)} /s (${workers} in parallel, ${ms(raw.cpuPerVerify)} ms CPU each); ` +
        `floor (HTTP + verify only) ${(fl.total / seconds).toFixed(1)} req/s = ${floorRatios[round - 1]!.toFixed(2)}×; ` +
        `login (json, correct password) ${rate.toFixed(1)} req/s = ${(rate / raw.rate).toFixed(2)}× (÷ floor ${loginToFloor[round - 1]!.toFixed(2)}×); ` +
        `CPU per floor request ${ms(fc.process / fl.total)} ms (main ${ms(fc.main / fl.total)}), per login ${ms((c.process + c.db) / cap.total)} ms ` +
        `(pool ${ms(c.pool / cap.total)}, main ${ms(c.main / cap.total)}, PostgreSQL ${ms(c.db / cap.total)}); ` +
        `p50 ${cap.p50} ms, p99 ${cap.p99} ms, non-2xx ${cap.non2xx}, errors ${cap.errors}; load average ${load()}`,
    );
  }
  await s1.close();
  await floor.close();
  const rate = median(rates);
  console.log(
    `login ÷ raw verify, median of ${rounds} interleaved rounds: ${median(ratios).toFixed(2)}× (rounds: ${ratios.map((r) => r.toFixed(2)).join(', ')})`,
  );
  console.log(
    `floor (HTTP + verify only, no database or token) ÷ raw verify: ${median(floorRatios).toFixed(2)}× (rounds: ${floorRatios.map((r) => r.toFixed(2)).join(', ')}); ` +
      `login ÷ floor: ${(median(ratios) / median(floorRatios)).toFixed(2)}× (median of the rounds' own login ÷ floor: ${median(loginToFloor).toFixed(2)}×, ` +
      `rounds: ${loginToFloor.map((r) => r.toFixed(2)).join(', ')})`,
  );
  const perLogin = (cpu.process + cpu.db) / n;
  const perVerify = rawCpu / rawN;
  console.log(
    `CPU per login: ${ms(perLogin)} ms = argon2 pool ${ms(cpu.pool / n)} + main thread ${ms(cpu.main / n)} (kernel ${ms(cpu.mainKernel / n)})` +
      ` + PostgreSQL ${ms(cpu.db / n)} (raw verify ${ms(perVerify)}: CPU-bound ratio ${(perVerify / perLogin).toFixed(2)}×);` +
      ` the load generator ${ms(generatorCpu / n)} ms per request`,
  );
  const perFloor = floorCpu.process / floorN;
  console.log(
    `CPU per floor request: ${ms(perFloor)} ms = argon2 pool ${ms(floorCpu.pool / floorN)} + main thread ${ms(floorCpu.main / floorN)}` +
      ` (floor ÷ login CPU: ${(perFloor / perLogin).toFixed(2)}×)`,
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
