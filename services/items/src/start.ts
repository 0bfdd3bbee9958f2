import path from 'node:path';
import { migrate } from '@vellum/db';
import { listenOn, runningService, type LocalServices, type RunningService } from '@vellum/http';
import type { Logger } from '@vellum/logger';
import type { Messaging } from '@vellum/messaging';
import { startOutboxRelay } from '@vellum/outbox';
import { observeOutbox, observePool, type Registry } from '@vellum/metrics';
import { apiTokensFrom, createTokenVerifier, jwksUrl, remoteKeySource, watchAccessRules, watchRevokedSessions, type KeySource } from '@vellum/tokens';
import { createApp } from './app';
import { CatalogueCache } from './data/catalogue-cache';
import type { ItemsConfig } from './config';
import { createItemsPool } from './data/items-pool';
import { createPrisma } from './data/prisma';
import { AccessRules } from './domain/access-rules';
import { HistoryBackPressure } from './domain/history-back-pressure';
import { VersionScheduler } from './domain/version-scheduler';
import { itemsOutboxDestinations } from './events/outbox-destinations';

export const MIGRATIONS_DIR = path.join(__dirname, '..', 'prisma', 'migrations');

export interface StartItemsDeps {
  logger: Logger;
  messaging: Messaging;
  /** Public keys for access tokens; default: the auth service's JWKS at AUTH_URL. */
  keySource?: KeySource;
  /** The process's metrics registry. */
  metrics?: Registry;
  /** The embedded topology's in-process services: the gateway hands requests straight to this one's handler. */
  local?: LocalServices;
}

/** Migrate, connect, watch the access rules, start the outbox relay and the promote scheduler, listen; stop() drains and closes all. */
export async function startItems(config: ItemsConfig, { logger, messaging, keySource, metrics, local }: StartItemsDeps): Promise<RunningService> {
  const keys = keySource ?? (config.AUTH_URL ? remoteKeySource({ url: jwksUrl(config.AUTH_URL) }) : undefined);
  if (!keys) throw new Error('items: AUTH_URL is required to verify access tokens');
  await migrate({ connectionString: config.DATABASE_URL, migrationsDir: MIGRATIONS_DIR, log: (m) => logger.info(m), checkOnly: !config.MIGRATE_AT_START });
  const pool = createItemsPool(config.DATABASE_URL, config.DB_POOL_MAX);
  let stopping = false;
  // once stopping, a connection the server ends while pool.end() closes it (a stop racing the database's own) is expected: not reported
  pool.on('error', (err) => (stopping ? undefined : logger.warn({ err }, 'items pool: idle connection error')));
  const prisma = createPrisma(config.DATABASE_URL, Math.max(2, Math.ceil(config.DB_POOL_MAX / 2)));
  const rules = new AccessRules();
  const access = await watchAccessRules(messaging, { into: rules, logger });
  const sessions = await watchRevokedSessions(messaging);
  const apiTokens = await apiTokensFrom(messaging);
  const relay = await startOutboxRelay({
    connectionString: config.DATABASE_URL,
    messaging,
    destinations: itemsOutboxDestinations,
    logger,
    pollMs: config.OUTBOX_POLL_INTERVAL,
    batchIntervalMs: config.OUTBOX_BATCH_INTERVAL,
  });
  const catalogue = new CatalogueCache();
  await catalogue.listen({ connectionString: config.DATABASE_URL, logger });
  const history = new HistoryBackPressure(pool, { limitMs: config.HISTORY_LAG_LIMIT, waitMs: config.HISTORY_LAG_WAIT });
  const limits = { limitDefault: config.QUERY_LIMIT_DEFAULT, limitMax: config.QUERY_LIMIT_MAX >= 0 ? config.QUERY_LIMIT_MAX : undefined };
  const scheduler = new VersionScheduler(
    { pool, rules, history, limits, now: () => new Date(), maxBatchMutation: config.MAX_BATCH_MUTATION, maxRelationalDepth: config.MAX_RELATIONAL_DEPTH },
    { logger, pollMs: config.VERSION_PUBLISH_POLL_INTERVAL },
  );
  const { listener, health } = createApp({
    pool,
    history,
    catalogue,
    maxBatchMutation: config.MAX_BATCH_MUTATION,
    maxRelationalDepth: config.MAX_RELATIONAL_DEPTH,
    prisma,
    rules,
    verifier: createTokenVerifier(keys),
    isSessionRevoked: sessions.isRevoked,
    apiTokens,
    onTokenUse: apiTokens.onUse,
    logger,
    trustProxy: config.TRUST_PROXY,
    revisionsUrl: config.REVISIONS_URL,
    limits,
    versionScheduler: scheduler,
    probes: {
      messaging: async () => messaging.health(),
      outbox: async () => relay.health(),
    },
    healthToken: config.HEALTH_TOKEN,
    metrics,
  });
  const unobserve = metrics ? [observePool(metrics, 'items', pool), observeOutbox(metrics, 'items', () => relay.stats())] : [];
  const listening = await listenOn(listener, config.PORT, config.HOST, local);
  scheduler.start();
  logger.info({ url: listening.url }, 'items listening');
  return runningService({
    name: 'items',
    url: listening.url,
    health,
    async stop() {
      stopping = true;
      await listening.close();
      await scheduler.stop(); // a scheduled promote under way commits (or rolls back) before the pool closes
      history.stop();
      await catalogue.stop();
      unobserve.forEach((u) => u());
      await relay.stop();
      await Promise.allSettled([access.stop(), sessions.stop(), apiTokens.stop()]);
      await Promise.allSettled([pool.end(), prisma.$disconnect()]);
    },
  });
}
