/* eslint-disable no-restricted-properties -- a bench script reads its own knobs */
// The revisions service alone for the bench scripts: a scratch database seeded with N revisions, the service on a
// free port with in-process messaging, JWTs signed by a key of the bench's own, and roles put straight into the
// access-rules bucket (no auth service).
import { ACCESS_BUCKET, type RoleAccess } from '@vellum/contracts';
import { databaseUrl, ensureDatabases } from '@vellum/db';
import { createLogger } from '@vellum/logger';
import { createInProcessMessaging } from '@vellum/messaging';
import { testTokens } from '@vellum/testing';
import { autocannon, type LoadResult } from '../../../bench/autocannon';
import { loadRevisionsConfig } from '../src/config';
import { startRevisions } from '../src/start';
import { EVEN_20, seedRevisions } from './seed';

export const SERVER = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/postgres';
export const DURATION = Number(process.env.BENCH_DURATION ?? 10);
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);

const tokens = testTokens('bench');

/** An access token of the bench's key for `role` (admin when `admin`), valid an hour. */
export const benchToken = (role: string, admin = false): string => tokens.sign({ id: `user-${role}`, role, admin_access: admin }, { expiresIn: 3600 });

export interface BenchService {
  url: string;
  /** Puts a role's read permissions (collection → fields) into the access-rules bucket. */
  setRole(role: string, read: Record<string, string[]>): Promise<void>;
  stop(): Promise<void>;
}

/** Seeds `database` with `n` revisions laid out by `collection` (see seedRevisions) and starts the service on it. */
export async function startBenchService(database: string, n: number, log: (m: string) => void, collection = EVEN_20): Promise<BenchService> {
  await ensureDatabases(SERVER, [database]);
  const url = databaseUrl(SERVER, database);
  const logger = createLogger({ name: 'revisions-bench', level: 'warn' });
  const messaging = createInProcessMessaging();
  // the seed rolls the partitions itself: no roll of the service's own while it seeds or measures
  const config = loadRevisionsConfig({
    DATABASE_URL: url,
    PORT: '0',
    LOG_LEVEL: 'warn',
    DB_POOL_MAX: process.env.BENCH_POOL ?? '10',
    PARTITION_ROLL_INTERVAL: '20d',
  });
  // staticKeySource re-imports the JWK on every call; auth's remoteKeySource caches — do the same here.
  const key = await tokens.keySource.get('bench');
  const service = await startRevisions(config, { logger, messaging, keySource: { get: async (kid) => (kid === 'bench' ? key : undefined) } });
  await seedRevisions(url, n, log, collection, Number(process.env.BENCH_MONTHS ?? 1));
  const kv = await messaging.keyValue<RoleAccess>(ACCESS_BUCKET);
  return {
    url: service.url,
    async setRole(role, read) {
      const permissions: RoleAccess['permissions'] = Object.fromEntries(Object.entries(read).map(([c, fields]) => [c, { read: fields }]));
      await kv.put(role, { role, admin: false, app: true, permissions, updated_at: new Date().toISOString() });
      await new Promise((r) => setTimeout(r, 100));
    },
    async stop() {
      await service.stop();
      await messaging.close();
    },
  };
}

/** `url` under load with `token` (the repository's autocannon runner, in its own process). */
export const load = (url: string, token: string, opts: { method?: string; body?: string } = {}): Promise<LoadResult> =>
  autocannon(url, { connections: CONNECTIONS, seconds: DURATION, headers: { Authorization: `Bearer ${token}` }, ...opts });
