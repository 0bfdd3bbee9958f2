import type { Pool, PoolClient } from 'pg';
import { ACCESS_BUCKET, type RoleAccess } from '@vellum/contracts';
import { createInProcessMessaging, type Messaging } from '@vellum/messaging';
import { createTestDatabase, testTokens, type TestDatabase, silentLogger } from '@vellum/testing';
import { createTokenVerifier, staticKeySource, watchAccessRules } from '@vellum/tokens';
import { createApp, type RevisionsApp } from '../src/app';
import type { RevisionsConfig } from '../src/config';
import { EventWriter, type RecordableEvent } from '../src/data/event.writer';
import { createPool } from '../src/data/pool';
import { MIGRATIONS_DIR } from '../src/start';

const tokens = testTokens('test-key');
export const jwks = tokens.jwks;

/** An ES256 access token as auth mints them (contract §3 claims). */
export function signToken(claims: { id: string; role: string | null; admin_access?: boolean; app_access?: boolean; exp?: number }): string {
  return tokens.sign(claims);
}

export const logger = silentLogger('revisions-test');

export const access = (role: string | null, permissions: RoleAccess['permissions'], admin = false): RoleAccess => ({
  role,
  admin,
  app: true,
  permissions,
  updated_at: '2026-01-01T00:00:00.000Z',
});

export interface Harness {
  db: TestDatabase;
  pool: Pool;
  messaging: Messaging;
  writer: EventWriter;
  app: RevisionsApp;
  setRules(key: string, value: RoleAccess | undefined): Promise<void>;
  /** Another app over the same database with other limits. */
  appWith(config: Partial<AppConfig>): RevisionsApp;
  close(): Promise<void>;
}
type AppConfig = Pick<RevisionsConfig, 'QUERY_LIMIT_DEFAULT' | 'QUERY_LIMIT_MAX' | 'QUERY_DEFERRED_JOIN_OFFSET'>;

export async function createHarness(now?: () => Date): Promise<Harness> {
  const db = await createTestDatabase({ migrationsDir: MIGRATIONS_DIR });
  const pool = createPool(db.url, 8);
  const messaging = createInProcessMessaging();
  const kv = await messaging.keyValue<RoleAccess>(ACCESS_BUCKET);
  const { rules, stop: stopRules } = await watchAccessRules(messaging);
  const verifier = createTokenVerifier(staticKeySource(jwks));
  const apps: RevisionsApp[] = [];
  const appWith = (config: Partial<AppConfig>) => {
    const a = createApp({
      pool,
      rules,
      verifier,
      logger,
      now,
      config: { QUERY_LIMIT_DEFAULT: 100, QUERY_LIMIT_MAX: -1, QUERY_DEFERRED_JOIN_OFFSET: 1000, ...config },
    });
    apps.push(a);
    return a;
  };
  return {
    db,
    pool,
    messaging,
    writer: new EventWriter(pool),
    app: appWith({}),
    appWith,
    setRules: async (key, value) => (value ? kv.put(key, value) : kv.delete(key)),
    close: async () => {
      for (const a of apps) await a.close();
      await stopRules();
      await messaging.close();
      await pool.end();
      await db.drop();
    },
  };
}

let seq = 0;
/** An item-change event with defaults. */
export function itemEvent(p: Partial<Extract<RecordableEvent, { kind: 'item' }>> & { collection: string; item: string; at: string }): RecordableEvent {
  const { at, ...rest } = p;
  return {
    kind: 'item',
    v: 1,
    id: `e-${++seq}-${Math.random().toString(36).slice(2, 8)}`,
    action: 'update',
    data: {},
    actor: { user: null },
    timestamp: at,
    ...rest,
  } as RecordableEvent;
}

/** A pool (as the reader uses one) that runs every statement on `client` and shows each (text, values) to `seen`. */
export function recordingPool(client: PoolClient, seen: (q: { text: string; values: unknown[] }) => void): Pool {
  return {
    query: (q: { text: string; values?: unknown[] } | string, values?: unknown[]) => {
      seen(typeof q === 'string' ? { text: q, values: values ?? [] } : { text: q.text, values: q.values ?? values ?? [] });
      return client.query(q as string, values);
    },
  } as unknown as Pool;
}
