import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Pool } from 'pg';
import { ACCESS_BUCKET, type RoleAccess } from '@vellum/contracts';
import { createInProcessMessaging, type Messaging, type Subscription } from '@vellum/messaging';
import { databaseOf, registerLocalRelay } from '@vellum/outbox';
import { createTestDatabase, testTokens, type TestDatabase } from '@vellum/testing';
import { createTokenVerifier, watchAccessRules } from '@vellum/tokens';
import { AccessRules, CatalogueCache, createApp, createItemsPool, createPrisma } from '../src';

export const MIGRATIONS = path.join(__dirname, '..', 'prisma', 'migrations');

/** An ES256 key pair (kid) whose public half the app trusts; tokens signed here as auth would. */
export const testKeys = () => testTokens(`k-${randomUUID().slice(0, 8)}`);

export interface Harness {
  db: TestDatabase;
  pool: Pool;
  messaging: Messaging;
  /** The service's request listener (what it serves with in production). */
  app: ReturnType<typeof createApp>['listener'];
  keys: ReturnType<typeof testKeys>;
  admin: string;
  tokenFor(role: string, user?: string): string;
  /** Publish a role's access rules to the KV bucket and wait until the app has them. */
  grant(key: string, permissions: RoleAccess['permissions']): Promise<void>;
  rules: AccessRules;
  outbox(): Promise<{ id: string; subject: string; payload: Record<string, unknown>; published_at: Date | null }[]>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  history?: (pool: Pool) => NonNullable<Parameters<typeof createApp>[0]['history']>;
  /**
   * As in every service process, a relay of the database runs here (default): one that publishes nothing, so the
   * outbox keeps every row for the tests to read. `false`: none (a write then wakes relays elsewhere by NOTIFY).
   */
  relay?: boolean;
}

export async function harness(opts: HarnessOptions = {}): Promise<Harness> {
  const db = await createTestDatabase({ migrationsDir: MIGRATIONS });
  const unregisterRelay = opts.relay === false ? () => undefined : registerLocalRelay(databaseOf(db.url), () => undefined);
  const pool = createItemsPool(db.url, 5);
  const prisma = createPrisma(db.url, 2);
  const messaging = createInProcessMessaging();
  const rules = new AccessRules();
  const sub: Subscription = await watchAccessRules(messaging, { into: rules });
  const keys = testKeys();
  // as start.ts runs it: collection definitions kept in memory, dropped by schema changes
  const catalogue = new CatalogueCache();
  await catalogue.listen({ connectionString: db.url, logger: { warn: () => undefined } });
  // the test plays the gateway (on loopback): its X-Forwarded-For is believed
  const { listener: app } = createApp({
    pool,
    prisma,
    rules,
    catalogue,
    trustProxy: ['loopback'],
    history: opts.history?.(pool),
    verifier: createTokenVerifier(keys.keySource),
    logger: { error: (o: object) => process.env.ITEMS_TEST_LOG && console.error(o), warn: () => undefined, info: () => undefined },
  });
  const kv = await messaging.keyValue<RoleAccess>(ACCESS_BUCKET);
  return {
    db,
    pool,
    messaging,
    app,
    keys,
    rules,
    admin: keys.sign({ id: randomUUID(), role: randomUUID(), admin_access: true }),
    tokenFor: (role, user = randomUUID()) => keys.sign({ id: user, role }),
    async grant(key, permissions) {
      const updated_at = new Date().toISOString();
      await kv.put(key, { role: key === 'public' ? null : key, admin: false, app: true, permissions, updated_at });
      for (
        let i = 0;
        i < 100 && rules.forCaller({ user: null, role: key === 'public' ? null : key, admin: false, app: false })?.updated_at !== updated_at;
        i++
      ) {
        await new Promise((r) => setTimeout(r, 5));
      }
    },
    async outbox() {
      const r = await pool.query(`SELECT "id", "subject", "payload", "published_at" FROM "outbox" ORDER BY "seq"`);
      return r.rows;
    },
    async close() {
      await sub.stop();
      unregisterRelay();
      await catalogue.stop();
      await messaging.close();
      await Promise.allSettled([pool.end(), prisma.$disconnect()]);
      await db.drop();
    },
  };
}

export const articlesCollection = (name = 'articles') => ({
  collection: name,
  meta: { icon: 'article', note: 'kept as sent' },
  schema: {},
  fields: [
    { field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true }, meta: { hidden: true } },
    { field: 'title', type: 'string', schema: { is_nullable: false, max_length: 80 } },
    { field: 'body', type: 'text' },
    { field: 'views', type: 'integer', schema: { default_value: 0, is_indexed: true } },
    { field: 'rating', type: 'float' },
    { field: 'price', type: 'decimal', schema: { numeric_precision: 10, numeric_scale: 2 } },
    { field: 'big', type: 'bigInteger' },
    { field: 'published', type: 'boolean', schema: { default_value: false } },
    { field: 'ref', type: 'uuid' },
    { field: 'extra', type: 'json' },
    { field: 'day', type: 'date' },
    { field: 'local_time', type: 'dateTime' },
    { field: 'at', type: 'timestamp' },
  ],
});
