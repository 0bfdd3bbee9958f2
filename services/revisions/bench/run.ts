/* eslint-disable no-restricted-properties -- a bench script reads its own knobs */
// npm run bench -w @vellum/revisions — seeds 1,000,000 and 10,000 revisions into scratch databases and measures
// the read paths with autocannon (concurrency 16, loopback, straight against the service).
import { benchToken, load, startBenchService } from './bench-service';

const SIZES = (process.env.BENCH_SIZES ?? '1000000,10000').split(',').map(Number);
const ONLY = process.env.BENCH_ONLY?.split(',').filter(Boolean);
const admin = benchToken('r-admin', true);
const restricted = benchToken('r-editor');

interface Result {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

/** One scenario under load. */
async function autocannon(name: string, url: string, auth: string, opts: { method?: string; body?: string } = {}): Promise<Result> {
  return { name, ...(await load(url, auth, opts)) };
}

async function benchSize(n: number): Promise<Result[]> {
  const log = (m: string) => console.log(`[${n}] ${m}`);
  const service = await startBenchService(`vellum_revisions_bench_${n}`, n, log);
  const read: Record<string, string[]> = {};
  for (let i = 0; i < 20; i += 2) read[`c${i}`] = ['id', 'title', 'status'];
  await service.setRole('r-editor', read);

  const base = service.url;
  const gqlBody = JSON.stringify({ query: '{ revisions(limit: 25, sort: ["-id"]) { id activity { id } collection item data delta parent { id } version } }' });
  const deepOffset = Math.floor(n * 0.9);
  const scenarios: [string, () => Promise<Result>][] = [
    ['admin list limit=25&sort=-id', () => autocannon('admin list', `${base}/revisions?limit=25&sort=-id`, admin)],
    ['restricted list', () => autocannon('restricted list', `${base}/revisions?limit=25&sort=-id`, restricted)],
    ['filter collection + meta=filter_count', () => autocannon('filter_count', `${base}/revisions?filter[collection][_eq]=c7&meta=filter_count`, admin)],
    [`offset=${deepOffset}`, () => autocannon(`offset=${deepOffset}`, `${base}/revisions?limit=25&offset=${deepOffset}`, admin)],
    ['GraphQL list (subgraph, no gateway)', () => autocannon('graphql list', `${base}/graphql`, admin, { method: 'POST', body: gqlBody })],
  ];
  const results: Result[] = [];
  for (const [label, run] of scenarios) {
    if (ONLY && !ONLY.some((o) => label.includes(o))) continue;
    if (n < 100_000 && !label.startsWith('admin list')) continue;
    const r = await run();
    r.name = `${n.toLocaleString('en')}: ${label}`;
    log(`${label}: ${r.rps} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms${r.errors || r.non2xx ? `, errors ${r.errors}, non-2xx ${r.non2xx}` : ''}`);
    results.push(r);
  }
  await service.stop();
  return results;
}

async function main() {
  const all: Result[] = [];
  for (const n of SIZES) all.push(...(await benchSize(n)));
  console.log('\n| scenario | req/s | p50 ms | p99 ms |\n|---|---|---|---|');
  for (const r of all) console.log(`| ${r.name} | ${r.rps} | ${r.p50} | ${r.p99} |`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
