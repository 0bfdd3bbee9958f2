// A CPU profile of the embedded platform (`npm start`'s one process) serving the admin list through the gateway
// (PROFILE_VIA=gateway, default) or straight to its revisions service (direct) — or the GraphQL list with
// PROFILE_GRAPHQL=1 — over the 100,000-revision databases
// `npm run bench` leaves (PROFILE_SIZE: another size's): run this file under `node --cpu-prof --import tsx`; it loads itself with autocannon (its own
// process) for PROFILE_SECONDS (15) after 3 s of warm-up and prints req/s, CPU µs per request and, with the profile
// written at exit, `bench/profile-summary.ts` of the loaded seconds:
//   node --cpu-prof --cpu-prof-dir=.cache/profiles --import tsx bench/profile-platform.ts
import { benchAdminToken, startBenchPlatform } from './bench-platform';
import { autocannon } from './autocannon';
import { cpuUs } from './proc-cpu';

const SERVER = process.env.BENCH_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/postgres';
const SECONDS = Number(process.env.PROFILE_SECONDS ?? 15);

(async () => {
  const platform = await startBenchPlatform({ databaseUrl: SERVER, size: Number(process.env.PROFILE_SIZE ?? 100_000) });
  const admin = await benchAdminToken(platform);
  const base = process.env.PROFILE_VIA === 'direct' ? platform.services.revisions.url : platform.url;
  // PROFILE_GRAPHQL=1: the GraphQL list `npm run bench` measures (gateway: /graphql/system, direct: the subgraph)
  const graphql = process.env.PROFILE_GRAPHQL === '1';
  const url = graphql ? `${base}${process.env.PROFILE_VIA === 'direct' ? '/graphql' : '/graphql/system'}` : `${base}/revisions?limit=25&sort=-id`;
  const gql = JSON.stringify({ query: '{ revisions(limit: 25, sort: ["-id"]) { id collection item delta activity { action timestamp } } }' });
  const opts = { connections: 16, headers: { Authorization: `Bearer ${admin}` }, ...(graphql ? { method: 'POST', body: gql } : {}) };
  await autocannon(url, { ...opts, seconds: 3 });
  const c0 = cpuUs(process.pid);
  const t0 = performance.now();
  const x = await autocannon(url, { ...opts, seconds: SECONDS });
  const cpu = Math.round((cpuUs(process.pid) - c0) / Math.max(1, x.total));
  // the load average too: CPU per request grows with it (compare with a bench run's figures at the same load only)
  const load = (await import('node:os')).loadavg()[0]!.toFixed(1);
  console.log(
    `${process.env.PROFILE_VIA ?? 'gateway'}: ${x.rps} req/s, CPU ${cpu} µs/req, load ${load}; loaded ${((performance.now() - t0) / 1000).toFixed(1)} s, ended ${performance.now().toFixed(0)} ms after start`,
  );
  await platform.stop();
  process.exit(0);
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
