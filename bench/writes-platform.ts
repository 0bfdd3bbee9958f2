import path from 'node:path';
import { Client } from 'pg';

export const ADMIN = { email: 'bench@example.com', password: 'bench-password-1' };

/** The write bench's collection: an integer key, a title and a number every write changes. */
export const BENCH_COLLECTION = {
  collection: 'bench_items',
  meta: null,
  schema: {},
  fields: [
    { field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true } },
    { field: 'title', type: 'string' },
    { field: 'n', type: 'integer' },
  ],
};

/** Nested writes (41.5): notes of a bench item, written inside its POST (`notes` is the one-to-many alias). */
const NOTES_COLLECTION = {
  collection: 'bench_notes',
  meta: null,
  schema: {},
  fields: [
    { field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true } },
    { field: 'text', type: 'string' },
    { field: 'item', type: 'integer' },
  ],
};
const NOTES_RELATION = {
  collection: 'bench_notes',
  field: 'item',
  related_collection: 'bench_items',
  meta: { one_field: 'notes', one_deselect_action: 'delete' },
  schema: { on_delete: 'CASCADE' },
};
/** Version saves (41.5): a versioned collection of its own (bench_items stays unversioned), one version per item. */
const DRAFTS_COLLECTION = { ...BENCH_COLLECTION, collection: 'bench_drafts', meta: { versioning: true } };
export const DRAFTS = 200;

export async function call(base: string, method: string, url: string, token: string | undefined, body?: unknown) {
  const r = await fetch(base + url, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  if (!r.ok) throw new Error(`${method} ${url} → ${r.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : undefined;
}

export interface WritesPlatform {
  url: string;
  token: string;
  /** The ids of the versions of bench_drafts' items, one per item. */
  versionIds: string[];
  databaseUrls: { auth: string; items: string; revisions: string };
  stop(): Promise<void>;
}

/**
 * The embedded platform of checkout `tree` (its code, its node_modules) in this process, over fresh databases
 * `vellum_<service>_writes_<name>` on `server`, with `bench_items` seeded with `items` items.
 */
export async function startWritesPlatform(tree: string, name: string, server: string, items: number): Promise<WritesPlatform> {
  const { startPlatform, loadLocalConfig } = require(`${tree}/deploy/local/src`);
  const { createLogger } = require(`${tree}/libs/logger/src`);
  const databases = { auth: `vellum_auth_writes_${name}`, revisions: `vellum_revisions_writes_${name}`, items: `vellum_items_writes_${name}` };
  const admin = new Client({ connectionString: server });
  await admin.connect();
  for (const db of Object.values(databases)) await admin.query(`DROP DATABASE IF EXISTS "${db}" WITH (FORCE)`);
  await admin.end();
  const config = loadLocalConfig({ DATABASE_URL: server, DATA_DIR: path.resolve(`.cache/bench-writes-${name}`), PORT: '0', LOG_LEVEL: 'warn' });
  const platform = await startPlatform({
    config,
    logger: createLogger({ name: 'bench', level: 'warn' }),
    databases,
    overrides: {
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      RATE_LIMITER_ENABLED: 'false',
      LOGIN_STALL_TIME: '0',
      // WB_HISTORY_LAG_LIMIT=0: the items service's back-pressure (and its lag sampling) off, to measure what it costs
      ...(process.env.WB_HISTORY_LAG_LIMIT ? { HISTORY_LAG_LIMIT: process.env.WB_HISTORY_LAG_LIMIT } : {}),
      // WB_CONFIG='{"REVISIONS_CONSUMER_CONCURRENCY":"256"}': any other setting of the platform, for an experiment;
      // WB_CONFIG_<NAME> for one platform of the run only (NEW, BASE: WB_BASE may be this same checkout)
      ...(JSON.parse(process.env[`WB_CONFIG_${name.toUpperCase()}`] ?? process.env.WB_CONFIG ?? '{}') as Record<string, string>),
    },
  });
  const token = (await call(platform.url, 'POST', '/auth/login', undefined, ADMIN)).data.access_token as string;
  await call(platform.url, 'POST', '/collections', token, BENCH_COLLECTION);
  for (let i = 0; i < items; i += 500) {
    const batch = Array.from({ length: Math.min(500, items - i) }, (_, k) => ({ title: `item ${i + k + 1}`, n: 0 }));
    await call(platform.url, 'POST', '/items/bench_items', token, batch);
  }
  await call(platform.url, 'POST', '/collections', token, NOTES_COLLECTION);
  await call(platform.url, 'POST', '/relations', token, NOTES_RELATION);
  await call(platform.url, 'POST', '/collections', token, DRAFTS_COLLECTION);
  const drafts = Array.from({ length: DRAFTS }, (_, k) => ({ title: `draft ${k + 1}`, n: 0 }));
  const draftIds = ((await call(platform.url, 'POST', '/items/bench_drafts', token, drafts)).data as { id: number }[]).map((d) => d.id);
  const versions = draftIds.map((item) => ({ key: 'draft', name: 'bench', collection: 'bench_drafts', item }));
  const versionIds = ((await call(platform.url, 'POST', '/versions', token, versions)).data as { id: string }[]).map((v) => v.id);
  return { url: platform.url, token, versionIds, databaseUrls: platform.databaseUrls, stop: () => platform.stop() };
}
