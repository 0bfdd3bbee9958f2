// A CPU profile of the revisions service of this checkout under load: `node --cpu-prof` on bench/serve-revisions.ts
// over the 100,000-revision database `npm run bench` leaves (AB_DB), PROFILE_SECONDS (15) of autocannon (concurrency
// 16) on one scenario (PROFILE_SCENARIO: admin | restricted | filter_count | SEARCH, default admin) after 3 s of
// warm-up; prints req/s, the CPU µs per request and the per-function summary of bench/profile-summary.ts over the
// loaded seconds. The profile stays in PROFILE_DIR (default .cache/profiles).
//   node --import tsx bench/profile-revisions.ts
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { autocannon } from './autocannon';
import { cpuSpentBetween, cpuUs, postgresCpu } from './proc-cpu';
import { benchTokens, scenarioOf } from './bench-tokens';

const DB = process.env.AB_DB ?? 'postgres://root@127.0.0.1:5432/vellum_revisions_bench_100000';
const SECONDS = Number(process.env.PROFILE_SECONDS ?? 15);
const DIR = path.resolve(process.env.PROFILE_DIR ?? '.cache/profiles');
const tree = path.resolve(__dirname, '..');

(async () => {
  mkdirSync(DIR, { recursive: true });
  const { jwks, admin, editor } = benchTokens();
  const s = scenarioOf(process.env.PROFILE_SCENARIO ?? 'admin', { admin, editor });
  const child = spawn(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${DIR}`, '--import', 'tsx', path.join(__dirname, 'serve-revisions.ts'), tree, DB], {
    cwd: tree,
    env: { ...process.env, JWKS: JSON.stringify(jwks) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (c) => reject(new Error(`exit ${c}`)));
    child.stdout.once('data', (d) => resolve(String(d).trim()));
  });
  const opts = { connections: 16, headers: { Authorization: `Bearer ${s.token}` }, method: s.method, body: s.body };
  await autocannon(url + s.path, { ...opts, seconds: 3 });
  const c0 = cpuUs(child.pid);
  const p0 = postgresCpu();
  const x = await autocannon(url + s.path, { ...opts, seconds: SECONDS });
  const cpu = Math.round((cpuUs(child.pid) - c0) / Math.max(1, x.total));
  // every PostgreSQL process of the machine (others' work included: a shared server)
  const pg = Math.round(cpuSpentBetween(p0, postgresCpu()) / Math.max(1, x.total));
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGINT');
  await exited;
  const newest = readdirSync(DIR)
    .filter((f) => f.endsWith('.cpuprofile'))
    .map((f) => path.join(DIR, f))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0]!;
  console.log(`${s.name}: ${x.rps} req/s, CPU ${cpu} µs/req, PostgreSQL ${pg} µs/req; profile ${newest}`);
  // the loaded seconds, counted back from the profile's end (the exit follows the load at once)
  const window = [String(-(SECONDS - 0.5)), '-0.3'];
  console.log(
    execFileSync(process.execPath, ['--import', 'tsx', path.join(__dirname, 'profile-summary.ts'), newest, process.env.PROFILE_TOP ?? '45', ...window], {
      encoding: 'utf8',
    }),
  );
  process.exit(0);
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
