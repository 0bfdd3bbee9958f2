/* eslint-disable no-restricted-properties -- a bench script reads its own knobs */
// Gateway overhead: the same request straight to the service vs through the gateway (and, for reference, through
// a bare node:http pass-through proxy), with autocannon. Every server runs in its own process; autocannon runs
// here. Each measurement is repeated ROUNDS times, interleaved, and medians are reported (the machine is shared).
// Goal (issue 5): gateway ≥ 0.7× direct req/s.
//   node --import tsx gateway/bench/overhead.bench.ts [seconds=10] [connections=50] [rounds=3]
//   BENCH_ONLY=trivial|work|revisions   pick scenarios (default all; revisions needs PostgreSQL + NATS)
//   BENCH_ALT_GATEWAY=/path/to/other/gateway/bench/serve-gateway.ts   A/B another build in the stub scenarios
//     (e.g. `git archive <commit> gateway tsconfig.base.json | tar -x -C /tmp/x && ln -s $PWD/node_modules /tmp/x/`)
//   BENCH_PROFILE=/tmp/dir   the gateway process writes a CPU profile (--cpu-prof) there when it stops
//   BENCH_DATABASE_URL / TEST_DATABASE_URL (default postgres://root@127.0.0.1:5432/postgres), NATS_URL (nats://127.0.0.1:4222)
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync, sign } from 'node:crypto';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { cpuUs } from '../../bench/proc-cpu';

const seconds = Number(process.argv[2] ?? 10);
const connections = Number(process.argv[3] ?? 50);
const rounds = Number(process.argv[4] ?? 3);
const only = process.env.BENCH_ONLY;
const SERVER = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/postgres';
const NATS = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const ROOT = path.resolve(__dirname, '../..');
/** A/B: another gateway build's serve-gateway.ts (e.g. an older commit checked out elsewhere), measured alongside. */
const ALT = process.env.BENCH_ALT_GATEWAY;

interface Run {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** CPU time per request of the watched processes (µs), from /proc: steady whatever else loads the machine. */
  cpu: number[];
}
interface Target {
  name: string;
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Processes whose CPU time per request is reported: [proxy (if any), service]. */
  watch: number[];
}

const children: ChildProcess[] = [];
interface Served {
  url: string;
  pid: number;
}
function serve(script: string, args: string[] = [], opts: { env?: NodeJS.ProcessEnv; cwd?: string; ready?: RegExp; node?: string[] } = {}): Promise<Served> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...(opts.node ?? []), '--import', 'tsx', script, ...args], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: opts.env ?? process.env,
      cwd: opts.cwd,
    });
    children.push(child);
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
    let buf = '';
    child.stdout!.on('data', (c: Buffer) => {
      buf += c.toString();
      const m = (opts.ready ?? /listening (\S+)/).exec(buf);
      if (m) resolve({ url: m[1], pid: child.pid! });
    });
  });
}
/** BENCH_PROFILE=<dir>: the gateway writes a V8 CPU profile there when it stops (open it in Chrome DevTools). */
const PROFILE = process.env.BENCH_PROFILE;
const bench = (name: string, args: string[] = []) =>
  serve(path.join(__dirname, name), args, { node: PROFILE && name === 'serve-gateway.ts' ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE}`] : [] });

async function load(t: Target, duration: number): Promise<Run> {
  const before = t.watch.map(cpuUs);
  const r = await autocannon({
    url: t.url,
    connections,
    duration,
    pipelining: 1,
    method: t.method ?? 'GET',
    headers: t.headers ?? {},
    ...(t.body ? { body: t.body } : {}),
  });
  const cpu = t.watch.map((pid, i) => (cpuUs(pid) - before[i]) / r.requests.total);
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.non2xx, cpu };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Interleaved rounds over the targets; medians per target, and the median of the per-round ratios to the first. */
async function measure(title: string, targets: Target[]) {
  for (const t of targets) await load(t, 2); // warm up every path (JIT, keep-alive pools, caches)
  const runs = targets.map(() => [] as Run[]);
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < targets.length; i++) runs[i].push(await load(targets[i], seconds));
  }
  console.log(`\n## ${title} — ${connections} connections, ${seconds} s × ${rounds} rounds, medians`);
  console.log('| path | req/s | ratio to direct | p50 ms | p99 ms | errors | CPU µs/req: proxy, service | req/s per round |');
  console.log('|---|---|---|---|---|---|---|---|');
  targets.forEach((t, i) => {
    const ratios = runs[i].map((r, k) => r.rps / runs[0][k].rps);
    const row = [
      t.name,
      median(runs[i].map((r) => r.rps)).toFixed(0),
      median(ratios).toFixed(2),
      median(runs[i].map((r) => r.p50)),
      median(runs[i].map((r) => r.p99)),
      runs[i].reduce((a, r) => a + r.errors, 0),
      t.watch.map((_, k) => median(runs[i].map((r) => r.cpu[k])).toFixed(0)).join(', '),
      runs[i].map((r) => r.rps.toFixed(0)).join(' / '),
    ];
    console.log(`| ${row.join(' | ')} |`);
  });
}

async function stubScenario(workMs: number) {
  const upstream = await bench('serve-upstream.ts', [String(workMs)]);
  const gateway = await bench('serve-gateway.ts', [upstream.url]);
  const bare = await bench('serve-bare-proxy.ts', [upstream.url]);
  const alt = ALT ? await serve(ALT, [upstream.url]) : undefined;
  await measure(`GET /revisions, stub upstream with ${workMs} ms CPU work per request`, [
    { name: 'direct', url: `${upstream.url}/revisions`, watch: [upstream.pid] },
    { name: 'through gateway', url: `${gateway.url}/revisions`, watch: [gateway.pid, upstream.pid] },
    { name: 'bare node:http proxy (reference)', url: `${bare.url}/revisions`, watch: [bare.pid, upstream.pid] },
    ...(alt ? [{ name: `gateway from ${ALT}`, url: `${alt.url}/revisions`, watch: [alt.pid, upstream.pid] }] : []),
  ]);
  // a request with a body: the same list with the query in a small JSON body (POST: autocannon has no SEARCH)
  const search = { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: { limit: 20 } }) };
  await measure(`POST /revisions (query in a JSON body), stub upstream with ${workMs} ms CPU work per request`, [
    { name: 'direct', url: `${upstream.url}/revisions`, ...search, watch: [upstream.pid] },
    { name: 'through gateway', url: `${gateway.url}/revisions`, ...search, watch: [gateway.pid, upstream.pid] },
    { name: 'bare node:http proxy (reference)', url: `${bare.url}/revisions`, ...search, watch: [bare.pid, upstream.pid] },
    ...(alt ? [{ name: `gateway from ${ALT}`, url: `${alt.url}/revisions`, ...search, watch: [alt.pid, upstream.pid] }] : []),
  ]);
}

/** The real revisions service (own process, NATS, PostgreSQL with 10,000 seeded revisions), admin token. */
async function revisionsScenario() {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwks = JSON.stringify({ keys: [{ ...publicKey.export({ format: 'jwk' }), kid: 'bench', alg: 'ES256', use: 'sig' }] });
  const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  const data = `${b64({ alg: 'ES256', typ: 'JWT', kid: 'bench' })}.${b64({ iss: 'vellum', iat: now, exp: now + 3600, id: 'admin', role: 'r-admin', app_access: true, admin_access: true })}`;
  const token = `${data}.${sign('sha256', Buffer.from(data), { key: privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`;
  // The auth service's key set, served from here (fetched once by each process).
  const keys = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(jwks));
  await new Promise<void>((r) => keys.listen(0, '127.0.0.1', r));
  const authUrl = `http://127.0.0.1:${(keys.address() as import('node:net').AddressInfo).port}`;

  const revisionsDir = path.join(ROOT, 'services/revisions');
  const runInRevisions = (code: string) =>
    execFileSync(process.execPath, ['--import', 'tsx', '-e', code], { cwd: revisionsDir, stdio: ['ignore', 'pipe', 'inherit'] }).toString();
  const dbUrl = runInRevisions(
    `const db = require('@vellum/db'); db.ensureDatabases(${JSON.stringify(SERVER)}, ['vellum_gateway_bench']).then(() => console.log(db.databaseUrl(${JSON.stringify(SERVER)}, 'vellum_gateway_bench')))`,
  ).trim();
  const revisions = await serve(path.join(revisionsDir, 'src/main.ts'), [], {
    cwd: revisionsDir,
    env: { ...process.env, DATABASE_URL: dbUrl, AUTH_URL: authUrl, NATS_URL: NATS, PORT: '0', LOG_LEVEL: 'info' },
    ready: /"url":"(http[^"]+)".*revisions service listening/,
  });
  runInRevisions(`require('./bench/seed').seedRevisions(${JSON.stringify(dbUrl)}, 10000, console.log)`);
  const gateway = await bench('serve-gateway.ts', [revisions.url, authUrl]);
  const bare = await bench('serve-bare-proxy.ts', [revisions.url]);
  const auth = { authorization: `Bearer ${token}` };
  const list = '/revisions?limit=25&sort=-id';
  await measure(`real revisions service, GET ${list} (admin token, 10,000 revisions)`, [
    { name: 'direct', url: `${revisions.url}${list}`, headers: auth, watch: [revisions.pid] },
    { name: 'through gateway', url: `${gateway.url}${list}`, headers: auth, watch: [gateway.pid, revisions.pid] },
    { name: 'bare node:http proxy (reference)', url: `${bare.url}${list}`, headers: auth, watch: [bare.pid, revisions.pid] },
  ]);
  const body = JSON.stringify({ query: '{ revisions(limit: 25, sort: ["-id"]) { id collection item data delta version } }' });
  const gql = { ...auth, 'content-type': 'application/json' };
  await measure('real revisions service, GraphQL list (25 revisions): subgraph directly vs federated gateway', [
    { name: 'subgraph /graphql directly', url: `${revisions.url}/graphql`, method: 'POST', headers: gql, body, watch: [revisions.pid] },
    { name: 'gateway /graphql/system', url: `${gateway.url}/graphql/system`, method: 'POST', headers: gql, body, watch: [gateway.pid, revisions.pid] },
  ]);
  keys.close();
}

async function main() {
  console.log(
    `load average before: ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')} (${os.cpus().length} cores)`,
  );
  if (!only || only === 'trivial') await stubScenario(0);
  if (!only || only === 'work') await stubScenario(1);
  if (!only || only === 'revisions') await revisionsScenario();
  console.log(
    `\nload average after: ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
}

main()
  .catch((e) => {
    console.error(e);
    process.exitCode = 1;
  })
  .finally(() => {
    for (const c of children) c.kill('SIGTERM');
    setTimeout(() => process.exit(), 500).unref();
  });
