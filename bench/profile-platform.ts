// A CPU profile of the embedded platform (`npm start`'s one process) serving the admin list through the gateway
// (PROFILE_VIA=gateway, default) or straight to its revisions service (direct) — or the GraphQL list with
// PROFILE_GRAPHQL=1 — over the 100,000-revision databases
// `npm run bench` leaves: run this file under `node --cpu-prof --import tsx`; it loads itself with autocannon (its own
// process) for PROFILE_SECONDS (15) after 3 s of warm-up and prints req/s, CPU µs per request and, with the profile
// written at exit, `bench/profile-summary.ts` of the loaded seconds:
//   node --cpu-prof --cpu-prof-dir=.cache/profiles --import tsx bench/profile-platform.ts
import path from 'node:path';
import { createLogger } from '@vellum/logger';
import { loadLocalConfig, startPlatform } from '@vellum/local';
import { api } from './api';
import { autocannon } from './autocannon';
import { cpuUs } from './proc-cpu';

const SERVER = process.env.BENCH_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/postgres';
const SECONDS = Number(process.env.PROFILE_SECONDS ?? 15);
const suffix = 'bench_100000';

(async () => {
  const config = loadLocalConfig({ DATABASE_URL: SERVER, DATA_DIR: path.resolve('.cache/bench'), PORT: '0', LOG_LEVEL: 'warn' });
  const platform = await startPlatform({
    config,
    logger: createLogger({ name: 'bench', level: 'warn' }),
    databases: { auth: `vellum_auth_${suffix}`, revisions: `vellum_revisions_${suffix}`, items: `vellum_items_${suffix}` },
    overrides: { ADMIN_EMAIL: 'bench@example.com', ADMIN_PASSWORD: 'bench-password-1', RATE_LIMITER_ENABLED: 'false', LOGIN_STALL_TIME: '0' },
  });
  const admin = (await api(platform.url, 'POST', '/auth/login', undefined, { email: 'bench@example.com', password: 'bench-password-1' })).data.access_token as string;
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
  console.log(`${process.env.PROFILE_VIA ?? 'gateway'}: ${x.rps} req/s, CPU ${cpu} µs/req; loaded ${((performance.now() - t0) / 1000).toFixed(1)} s, ended ${performance.now().toFixed(0)} ms after start`);
  await platform.stop();
  process.exit(0);
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
