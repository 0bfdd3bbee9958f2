// node --import tsx bench/serve-writes.ts <checkout> <name>: the embedded platform OF THAT CHECKOUT (its code, its
// node_modules) over fresh databases `vellum_<service>_writes_<name>` on BENCH_DATABASE_URL's server, with the
// collection `bench_items` (id, title, n) seeded with WB_ITEMS items; prints
// `ready {"url","token","databaseUrls"}` once ready. Used by bench/writes.ts (each platform its own process, so its CPU is
// its own); SIGINT/SIGTERM exit.
import path from 'node:path';
import { Client } from 'pg';

const [tree, name] = process.argv.slice(2) as [string, string];
const SERVER = process.env.BENCH_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/postgres';
const ITEMS = Number(process.env.WB_ITEMS ?? 2000);
const ADMIN = { email: 'bench@example.com', password: 'bench-password-1' };
const { startPlatform, loadLocalConfig } = require(`${tree}/deploy/local/src`);
const { createLogger } = require(`${tree}/libs/logger/src`);

const BENCH_COLLECTION = {
  collection: 'bench_items',
  meta: null,
  schema: {},
  fields: [
    { field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true } },
    { field: 'title', type: 'string' },
    { field: 'n', type: 'integer' },
  ],
};

async function call(base: string, method: string, url: string, token: string | undefined, body?: unknown) {
  const r = await fetch(base + url, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  if (!r.ok) throw new Error(`${method} ${url} → ${r.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : undefined;
}

(async () => {
  const databases = { auth: `vellum_auth_writes_${name}`, revisions: `vellum_revisions_writes_${name}`, items: `vellum_items_writes_${name}` };
  const admin = new Client({ connectionString: SERVER });
  await admin.connect();
  for (const db of Object.values(databases)) await admin.query(`DROP DATABASE IF EXISTS "${db}" WITH (FORCE)`);
  await admin.end();
  const config = loadLocalConfig({ DATABASE_URL: SERVER, DATA_DIR: path.resolve(`.cache/bench-writes-${name}`), PORT: '0', LOG_LEVEL: 'warn' });
  const platform = await startPlatform({
    config,
    logger: createLogger({ name: 'bench', level: 'warn' }),
    databases,
    overrides: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, RATE_LIMITER_ENABLED: 'false', LOGIN_STALL_TIME: '0' },
  });
  const token = (await call(platform.url, 'POST', '/auth/login', undefined, ADMIN)).data.access_token as string;
  await call(platform.url, 'POST', '/collections', token, BENCH_COLLECTION);
  for (let i = 0; i < ITEMS; i += 500) {
    const batch = Array.from({ length: Math.min(500, ITEMS - i) }, (_, k) => ({ title: `item ${i + k + 1}`, n: 0 }));
    await call(platform.url, 'POST', '/items/bench_items', token, batch);
  }
  process.stdout.write(`ready ${JSON.stringify({ url: platform.url, token, databaseUrls: platform.databaseUrls })}\n`);
  const stop = () => void platform.stop().finally(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
