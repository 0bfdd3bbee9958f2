import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Pool } from 'pg';
import { ACCESS_BUCKET, type ApiTokenEntry, type RoleAccess } from '@vellum/contracts';
import { createInProcessMessaging, type Messaging } from '@vellum/messaging';
import { createTestDatabase, openSse, type SseEvent, type TestDatabase } from '@vellum/testing';
import { createTokenVerifier, hashApiToken, staticKeySource, watchAccessRules } from '@vellum/tokens';
import { createApp, type RevisionsApp, type RevisionsAppDeps } from '../src/app';
import { createPool } from '../src/data/pool';
import { NotifyingEventWriter, revisionNotices } from '../src/events/revision-notices';
import { RevisionFeed } from '../src/domain/revision-feed';
import { MIGRATIONS_DIR } from '../src/start';
import { access, jwks, logger } from './helpers';

export { access };

/** A revisions app listening on a port, its writer telling its feed of every batch, as start.ts wires them. */
export interface StreamHarness {
  db: TestDatabase;
  pool: Pool;
  messaging: Messaging;
  app: RevisionsApp;
  url: string;
  writer: NotifyingEventWriter;
  revoked: Set<string>;
  rules: RevisionsAppDeps['rules'];
  apiTokens: Map<string, ApiTokenEntry>;
  setRules(key: string, value: RoleAccess): Promise<void>;
  /** `GET <path>` as JSON (`auth`: an Authorization header). */
  get(path: string, auth?: string): Promise<{ status: number; body: { data?: Record<string, unknown>[]; errors?: { extensions: { code: string } }[] } }>;
  stream(path: string, headers?: Record<string, string>): ReturnType<typeof openSse>;
  close(): Promise<void>;
}

/** One more replica over the same database: its own feed and notices on `messaging`, its writer telling both. */
export async function startReplica(
  pool: Pool,
  rules: RevisionsAppDeps['rules'],
  messaging: Messaging,
): Promise<{ app: RevisionsApp; url: string; writer: NotifyingEventWriter; feed: RevisionFeed; stop(): Promise<void> }> {
  // no safety reads: a revision recorded by another replica arrives only through its notice
  const feed = new RevisionFeed(pool, { logger, safetyPollMs: 3_600_000 });
  const notices = await revisionNotices(messaging, () => feed.poke(), logger);
  const app = createApp({
    pool,
    rules,
    feed,
    verifier: createTokenVerifier(staticKeySource(jwks)),
    logger,
    config: { QUERY_LIMIT_DEFAULT: 100, QUERY_LIMIT_MAX: -1, QUERY_DEFERRED_JOIN_OFFSET: 1000 },
  });
  const server = http.createServer(app.listener).listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const writer = new NotifyingEventWriter(pool, () => {
    feed.poke();
    notices.publish();
  });
  return {
    app,
    feed,
    writer,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async stop() {
      await app.close();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await notices.stop();
    },
  };
}

export async function createStreamHarness(config: Partial<RevisionsAppDeps['config']> = {}): Promise<StreamHarness> {
  const db = await createTestDatabase({ migrationsDir: MIGRATIONS_DIR });
  const pool = createPool(db.url, 8);
  const messaging = createInProcessMessaging();
  const kv = await messaging.keyValue<RoleAccess>(ACCESS_BUCKET);
  const rules = await watchAccessRules(messaging);
  const revoked = new Set<string>();
  const apiTokens = new Map<string, ApiTokenEntry>();
  const app = createApp({
    pool,
    rules: rules.rules,
    verifier: createTokenVerifier(staticKeySource(jwks)),
    logger,
    isSessionRevoked: (id) => revoked.has(id),
    apiTokens: { get: (hash) => apiTokens.get(hash) },
    config: { QUERY_LIMIT_DEFAULT: 100, QUERY_LIMIT_MAX: -1, QUERY_DEFERRED_JOIN_OFFSET: 1000, STREAM_HEARTBEAT: 15_000, ...config },
  });
  const server = http.createServer(app.listener).listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const writer = new NotifyingEventWriter(pool, () => app.feed.poke());
  return {
    db,
    pool,
    messaging,
    app,
    url,
    writer,
    revoked,
    rules: rules.rules,
    apiTokens,
    setRules: (key, value) => kv.put(key, value),
    async get(path, auth) {
      const r = await fetch(url + path, { headers: auth ? { authorization: auth } : {} });
      return { status: r.status, body: (await r.json()) as never };
    },
    stream: (path, headers) => openSse(url + path, headers),
    async close() {
      await app.close();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await rules.stop();
      await messaging.close();
      await pool.end();
      await db.drop();
    },
  };
}

/** An API token's map entry, as auth publishes it. */
export function apiTokenEntry(token: string, p: { user: string; role: string | null }): [string, ApiTokenEntry] {
  return [hashApiToken(token), { id: `t-${token.slice(-6)}`, user: p.user, role: p.role, admin: false, app: true, expires_at: null } as ApiTokenEntry];
}

/** The revisions of a stream's events (its `message` events, parsed). */
export const revisionsOf = (events: SseEvent[]) => events.filter((e) => e.event === 'message').map((e) => JSON.parse(e.data) as Record<string, unknown>);
export const idsOf = (events: SseEvent[]) => events.filter((e) => e.event === 'message').map((e) => Number(e.id));
