// Before/after in one run: the revisions service of two checkouts (AB_BASE, AB_NEW: e.g. a worktree of main and this
// branch, each with its node_modules) side by side over the same seeded database (AB_DB, default the 100,000-revision
// database `npm run bench` leaves), in AB_ROUNDS interleaved rounds (order alternating) of AB_SECONDS per scenario;
// per round: req/s and the serving process's CPU µs per request of each, and new ÷ base. AB_ONLY filters scenarios.
//   AB_BASE=/path/to/main-checkout AB_NEW=$PWD node --import tsx bench/compare-checkouts.ts
import path from 'node:path';
import { spawn } from 'node:child_process';
import { testTokens } from '@vellum/testing';
import { autocannon } from './autocannon';
import { cpuUs } from './proc-cpu';

const [baseTree, newTree] = [process.env.AB_BASE!, process.env.AB_NEW!];
const DB = process.env.AB_DB ?? 'postgres://root@127.0.0.1:5432/vellum_revisions_bench_100000';
const SECONDS = Number(process.env.AB_SECONDS ?? 5);
const ROUNDS = Number(process.env.AB_ROUNDS ?? 3);
const tokens = testTokens('bench');
/** The GraphQL list `npm run bench` measures (bench/run.ts). */
const GRAPHQL_LIST = JSON.stringify({ query: '{ revisions(limit: 25, sort: ["-id"]) { id collection item delta activity { action timestamp } } }' });
const jwks = tokens.jwks;
const admin = tokens.sign({ id: 'admin', role: 'r-admin', admin_access: true }, { expiresIn: 7200 });
const editor = tokens.sign({ id: 'editor', role: 'r-editor', admin_access: false }, { expiresIn: 7200 });

async function serve(tree: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'serve-revisions.ts'), tree, DB], {
    cwd: tree,
    env: { ...process.env, JWKS: JSON.stringify(jwks) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (c) => reject(new Error(`exit ${c}`)));
    child.stdout.once('data', (d) => resolve(String(d).trim()));
  });
  return { url, pid: child.pid!, stop: () => child.kill('SIGKILL') };
}

(async () => {
  const trees = { base: await serve(baseTree), new: await serve(newTree) };
  const search = JSON.stringify({ query: { filter: { _or: [{ collection: { _eq: 'c3' } }, { collection: { _eq: 'c4' } }] }, sort: ['-id'], limit: 25 } });
  const scenarios = [
    { name: 'admin list', path: '/revisions?limit=25&sort=-id', token: admin },
    { name: 'restricted list', path: '/revisions?limit=25&sort=-id', token: editor },
    { name: 'filter_count', path: '/revisions?filter[collection][_eq]=c7&meta=filter_count&limit=25', token: admin },
    { name: 'SEARCH', path: '/revisions', token: editor, method: 'SEARCH', body: search },
    { name: 'GraphQL list', path: '/graphql', token: admin, method: 'POST', body: GRAPHQL_LIST },
  ].filter((s) => !process.env.AB_ONLY || s.name.includes(process.env.AB_ONLY));
  for (const s of scenarios) {
    for (const t of Object.values(trees)) {
      const a = await (
        await fetch(t.url + s.path, {
          method: s.method ?? 'GET',
          headers: { authorization: `Bearer ${s.token}`, 'content-type': 'application/json' },
          body: s.body,
        })
      ).text();
      if (!a.startsWith('{"data":[{') && !a.startsWith('{"data":{"revisions":[{')) throw new Error(`${s.name}: ${a.slice(0, 200)}`);
    }
    for (const t of Object.values(trees))
      await autocannon(t.url + s.path, { connections: 16, seconds: 2, headers: { Authorization: `Bearer ${s.token}` }, method: s.method, body: s.body });
    for (let round = 1; round <= ROUNDS; round++) {
      const order = round % 2 ? (['base', 'new'] as const) : (['new', 'base'] as const);
      const r: Record<string, { rps: number; cpu: number }> = {};
      for (const k of order) {
        const t = trees[k];
        const c0 = cpuUs(t.pid);
        const x = await autocannon(t.url + s.path, {
          connections: 16,
          seconds: SECONDS,
          headers: { Authorization: `Bearer ${s.token}` },
          method: s.method,
          body: s.body,
        });
        r[k] = { rps: x.rps, cpu: Math.round((cpuUs(t.pid) - c0) / Math.max(1, x.total)) };
      }
      console.log(
        `${s.name} round ${round}: base ${r.base!.rps} req/s ${r.base!.cpu} µs/req | new ${r.new!.rps} req/s ${r.new!.cpu} µs/req | new÷base req/s ${(r.new!.rps / r.base!.rps).toFixed(2)}, CPU ${(r.new!.cpu / r.base!.cpu).toFixed(2)}`,
      );
    }
  }
  for (const t of Object.values(trees)) t.stop();
  process.exit(0);
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
