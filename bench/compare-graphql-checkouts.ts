// Before/after in one run for issue 18.2: the embedded platform of two checkouts (AB_BASE, AB_NEW, each with its
// node_modules), each its own process over its own bench databases (AB_BASE_SIZE 100,002 and AB_NEW_SIZE 100,001
// revisions, seeded when missing: not the 100,000 `npm run bench` leaves), and in AB_ROUNDS interleaved rounds (the
// order alternating) of AB_SECONDS per measurement: the REST admin list and the GraphQL list `npm run bench`
// measures, both through the gateway. Per round: req/s and the platform process's CPU µs per request, GraphQL ÷ REST
// of each checkout, and new ÷ base.
//   AB_BASE=/path/to/main-checkout AB_NEW=$PWD node --import tsx bench/compare-graphql-checkouts.ts
import path from 'node:path';
import { spawn } from 'node:child_process';
import { autocannon } from './autocannon';
import { cpuUs } from './proc-cpu';

const SECONDS = Number(process.env.AB_SECONDS ?? 5);
const ROUNDS = Number(process.env.AB_ROUNDS ?? 4);
const QUERY = JSON.stringify({ query: '{ revisions(limit: 25, sort: ["-id"]) { id collection item delta activity { action timestamp } } }' });

async function serve(tree: string, size: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'serve-platform.ts'), tree, size], {
    cwd: tree,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  // the platform's own log lines go to stdout too: the answer is the line that starts with its URL
  const [url, token] = await new Promise<string[]>((resolve, reject) => {
    child.once('exit', (c) => reject(new Error(`exit ${c}`)));
    let out = '';
    child.stdout.on('data', (d) => {
      out += String(d);
      const line = out.split('\n').find((l) => l.startsWith('http'));
      if (line) resolve(line.trim().split(' '));
    });
  });
  return { url: url!, token: token!, pid: child.pid!, stop: () => child.kill('SIGKILL') };
}

type Platform = Awaited<ReturnType<typeof serve>>;

async function measure(p: Platform, graphql: boolean) {
  const opts = { connections: 16, headers: { Authorization: `Bearer ${p.token}` }, ...(graphql ? { method: 'POST', body: QUERY } : {}) };
  const url = graphql ? `${p.url}/graphql/system` : `${p.url}/revisions?limit=25&sort=-id`;
  const c0 = cpuUs(p.pid);
  const x = await autocannon(url, { ...opts, seconds: SECONDS });
  if (x.non2xx || x.errors) throw new Error(`${url}: ${x.non2xx} non-2xx, ${x.errors} errors`);
  return { rps: x.rps, cpu: Math.round((cpuUs(p.pid) - c0) / Math.max(1, x.total)) };
}

(async () => {
  const base = await serve(process.env.AB_BASE!, process.env.AB_BASE_SIZE ?? '100002');
  const next = await serve(process.env.AB_NEW!, process.env.AB_NEW_SIZE ?? '100001');
  try {
    for (const p of [base, next])
      for (const g of [false, true])
        await autocannon(g ? `${p.url}/graphql/system` : `${p.url}/revisions?limit=25&sort=-id`, {
          connections: 16,
          seconds: 2,
          headers: { Authorization: `Bearer ${p.token}` },
          ...(g ? { method: 'POST', body: QUERY } : {}),
        });
    for (let i = 0; i < ROUNDS; i++) {
      const order = i % 2 ? [next, base] : [base, next];
      const r = new Map<Platform, { rest: { rps: number; cpu: number }; gql: { rps: number; cpu: number } }>();
      for (const p of order) {
        const rest = await measure(p, false);
        const gql = await measure(p, true);
        r.set(p, { rest, gql });
      }
      const line = (name: string, p: Platform) => {
        const { rest, gql } = r.get(p)!;
        return `${name}: REST ${rest.rps} req/s ${rest.cpu} µs, GraphQL ${gql.rps} req/s ${gql.cpu} µs, GraphQL ÷ REST ${(gql.rps / rest.rps).toFixed(2)} (CPU ${(gql.cpu / rest.cpu).toFixed(2)})`;
      };
      const ratio = r.get(next)!.gql.cpu / r.get(base)!.gql.cpu;
      console.log(`round ${i + 1} | ${line('base', base)} | ${line('new', next)} | GraphQL CPU new ÷ base ${ratio.toFixed(2)}`);
    }
  } finally {
    base.stop();
    next.stop();
  }
  process.exit(0);
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
