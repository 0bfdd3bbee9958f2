// GraphQL ÷ REST through the gateway of the embedded platform (issue 18.2), in interleaved rounds of one run:
// the GraphQL list `npm run bench` measures (POST /graphql/system) against GET /revisions?limit=25&sort=-id, as
// the bench administrator, over the databases of GR_SIZE revisions (default 100,001: not the 100,000 `npm run bench`
// leaves, so it can run beside that; seeded here when missing). Prints req/s and the process's CPU µs per request
// of each round, and the ratios:
//   GR_SIZE=100001 GR_ROUNDS=3 GR_SECONDS=8 node --import tsx bench/graphql-vs-rest.ts
import { seedRevisions } from '../services/revisions/bench/seed';
import { autocannon } from './autocannon';
import { benchAdminToken, startBenchPlatform } from './bench-platform';
import { cpuUs } from './proc-cpu';

const SERVER = process.env.BENCH_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/postgres';
const SIZE = Number(process.env.GR_SIZE ?? 100_001);
const ROUNDS = Number(process.env.GR_ROUNDS ?? 3);
const SECONDS = Number(process.env.GR_SECONDS ?? 8);
const QUERY = '{ revisions(limit: 25, sort: ["-id"]) { id collection item delta activity { action timestamp } } }';

(async () => {
  const platform = await startBenchPlatform({ databaseUrl: SERVER, size: SIZE });
  try {
    await seedRevisions(platform.databaseUrls.revisions, SIZE, (m) => console.log(m));
    const admin = await benchAdminToken(platform);
    const headers = { Authorization: `Bearer ${admin}` };
    const rest = { url: `${platform.url}/revisions?limit=25&sort=-id`, opts: { connections: 16, headers } };
    const gql = { url: `${platform.url}/graphql/system`, opts: { connections: 16, headers, method: 'POST', body: JSON.stringify({ query: QUERY }) } };
    // the same rows either way
    const a = (await (await fetch(rest.url, { headers })).json()) as { data: { id: number }[] };
    const b = (await (await fetch(gql.url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: gql.opts.body })).json()) as {
      data: { revisions: { id: number }[] };
    };
    if (a.data.map((r) => r.id).join() !== b.data.revisions.map((r) => r.id).join()) throw new Error('REST and GraphQL pages differ');
    for (const s of [rest, gql]) await autocannon(s.url, { ...s.opts, seconds: 2 });
    const measure = async (s: typeof rest) => {
      const c0 = cpuUs(process.pid);
      const x = await autocannon(s.url, { ...s.opts, seconds: SECONDS });
      if (x.non2xx || x.errors) throw new Error(`${s.url}: ${x.non2xx} non-2xx, ${x.errors} errors`);
      return { rps: x.rps, cpu: Math.round((cpuUs(process.pid) - c0) / Math.max(1, x.total)) };
    };
    for (let i = 0; i < ROUNDS; i++) {
      const r = await measure(rest);
      const g = await measure(gql);
      console.log(
        `round ${i + 1}: REST ${r.rps} req/s ${r.cpu} µs/req | GraphQL ${g.rps} req/s ${g.cpu} µs/op | GraphQL ÷ REST req/s ${(g.rps / r.rps).toFixed(2)}, CPU ${(g.cpu / r.cpu).toFixed(2)}`,
      );
    }
  } finally {
    await platform.stop();
  }
  process.exit(0);
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
