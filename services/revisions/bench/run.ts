/* eslint-disable no-restricted-properties -- a bench script reads its own knobs */
// npm run bench -w @vellum/revisions — seeds 1,000,000 and 10,000 revisions into scratch databases and measures
// the read paths with autocannon (concurrency 16, loopback, straight against the service).
import { ACCESS_BUCKET, type RoleAccess } from '@vellum/contracts';
import { databaseUrl, ensureDatabases } from '@vellum/db';
import { createLogger } from '@vellum/logger';
import { createInProcessMessaging } from '@vellum/messaging';
import { testTokens } from '@vellum/testing';
import { staticKeySource } from '@vellum/tokens';
import { loadRevisionsConfig } from '../src/config';
import { startRevisions } from '../src/start';
import { seedRevisions } from './seed';
import { autocannon as runAutocannon } from '../../../bench/autocannon';

const SERVER = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/postgres';
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const SIZES = (process.env.BENCH_SIZES ?? '1000000,10000').split(',').map(Number);
const ONLY = process.env.BENCH_ONLY?.split(',').filter(Boolean);

const tokens = testTokens('bench');
const jwks = tokens.jwks;
const admin = tokens.sign({ id: 'admin', role: 'r-admin', admin_access: true }, { expiresIn: 3600 });
const restricted = tokens.sign({ id: 'editor', role: 'r-editor', admin_access: false }, { expiresIn: 3600 });

interface Result {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

/** One scenario under load (the repository's shared autocannon runner, in its own process). */
async function autocannon(name: string, url: string, auth: string, opts: { method?: string; body?: string } = {}): Promise<Result> {
  const r = await runAutocannon(url, { connections: CONNECTIONS, seconds: DURATION, headers: { Authorization: `Bearer ${auth}` }, ...opts });
  return { name, ...r };
}

async function benchSize(n: number): Promise<Result[]> {
  const db = `vellum_revisions_bench_${n}`;
  await ensureDatabases(SERVER, [db]);
  const url = databaseUrl(SERVER, db);
  const log = (m: string) => console.log(`[${n}] ${m}`);
  const logger = createLogger({ name: 'revisions-bench', level: 'warn' });
  const messaging = createInProcessMessaging();
  const config = loadRevisionsConfig({ DATABASE_URL: url, PORT: '0', LOG_LEVEL: 'warn', DB_POOL_MAX: process.env.BENCH_POOL ?? '10' });
  // staticKeySource re-imports the JWK on every call; auth's remoteKeySource caches — do the same here.
  const keys = staticKeySource(jwks);
  const key = await keys.get('bench');
  const service = await startRevisions(config, { logger, messaging, keySource: { get: async (kid) => (kid === 'bench' ? key : undefined) } });
  await seedRevisions(url, n, log);
  const kv = await messaging.keyValue<RoleAccess>(ACCESS_BUCKET);
  const perms: RoleAccess['permissions'] = {};
  for (let i = 0; i < 20; i += 2) perms[`c${i}`] = { read: ['id', 'title', 'status'] };
  await kv.put('r-editor', { role: 'r-editor', admin: false, app: true, permissions: perms, updated_at: new Date().toISOString() });
  await new Promise((r) => setTimeout(r, 100));

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
  await messaging.close();
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
