import path from 'node:path';
import { migrate } from '@vellum/db';
import { listenOn, runningService, type LocalServices, type RunningService } from '@vellum/http';
import { observeConsumer, observePool, type Registry } from '@vellum/metrics';
import { ITEMS_STREAM } from '@vellum/contracts';
import type { Logger } from '@vellum/logger';
import type { Messaging } from '@vellum/messaging';
import { apiTokensFrom, createTokenVerifier, jwksUrl, remoteKeySource, watchAccessRules, watchRevokedSessions, type KeySource } from '@vellum/tokens';
import { createApp } from './app';
import { retentionPolicy, type RevisionsConfig } from './config';
import { createPool } from './data/pool';
import { schedulePartitionRoll } from './domain/partition-roll.scheduler';
import { scheduleRetention } from './domain/retention.scheduler';
import { REVISIONS_DURABLE, startItemEventsConsumer } from './events/item-events.consumer';
import { NotifyingEventWriter, revisionNotices } from './events/revision-notices';
import { RevisionFeed } from './domain/revision-feed';
import { observeStreams } from './stream-metrics';

export const MIGRATIONS_DIR = path.join(__dirname, '..', 'prisma', 'migrations');

export interface StartRevisionsDeps {
  logger: Logger;
  messaging: Messaging;
  /** Default: the auth service's JWKS at AUTH_URL. */
  keySource?: KeySource;
  /** The process's metrics registry. */
  metrics?: Registry;
  /** The embedded topology's in-process services: the gateway hands requests straight to this one's handler. */
  local?: LocalServices;
}

/** Migrate, connect, watch access rules, start the item-event consumer and the retention schedule, and listen. */
export async function startRevisions(config: RevisionsConfig, deps: StartRevisionsDeps): Promise<RunningService> {
  const { logger, messaging } = deps;
  await migrate({ connectionString: config.DATABASE_URL, migrationsDir: MIGRATIONS_DIR, log: (m) => logger.info(m), checkOnly: !config.MIGRATE_AT_START });
  const pool = createPool(config.DATABASE_URL, config.DB_POOL_MAX, { randomPageCost: config.DB_RANDOM_PAGE_COST });
  let stopping = false;
  // once stopping, a connection the server ends while pool.end() closes it (a stop racing the database's own) is expected: not reported
  pool.on('error', (err) => (stopping ? undefined : logger.error({ err }, 'idle database client failed')));
  const access = await watchAccessRules(messaging, { logger });
  const sessions = await watchRevokedSessions(messaging);
  const apiTokens = await apiTokensFrom(messaging);
  // streams: this replica's feed reads each recorded batch once, told by its own writer or another replica's notice
  const feed = new RevisionFeed(pool, { logger, batchIntervalMs: config.STREAM_BATCH_INTERVAL });
  const notices = await revisionNotices(messaging, () => feed.poke(), logger);
  const writer = new NotifyingEventWriter(pool, () => {
    feed.poke();
    notices.publish();
  });
  const consumer = await startItemEventsConsumer({
    messaging,
    writer,
    logger,
    concurrency: config.REVISIONS_CONSUMER_CONCURRENCY,
    orderWaitMs: config.REVISIONS_ORDER_WAIT,
  });
  const keySource = deps.keySource ?? remoteKeySource({ url: jwksUrl(config.AUTH_URL) });
  const built = createApp({
    pool,
    feed,
    rules: access.rules,
    verifier: createTokenVerifier(keySource),
    logger,
    config,
    isSessionRevoked: sessions.isRevoked,
    apiTokens,
    onTokenUse: apiTokens.onUse,
    probes: {
      messaging: async () => {
        const h = await messaging.health();
        return h.status === 'ok' ? 'ok' : { status: 'error', reason: h.reason };
      },
    },
    healthToken: config.HEALTH_TOKEN,
    metrics: deps.metrics,
  });
  const { metrics } = deps;
  const stats = consumer.stats?.bind(consumer);
  const unobserve = metrics
    ? [
        observePool(metrics, 'revisions', pool),
        observeStreams(metrics, feed, built.streams),
        ...(stats ? [observeConsumer(metrics, { service: 'revisions', stream: ITEMS_STREAM, consumer: REVISIONS_DURABLE }, stats)] : []),
      ]
    : [];
  const retention = scheduleRetention({ pool, policy: retentionPolicy(config), intervalMs: config.RETENTION_INTERVAL, logger });
  const roll = schedulePartitionRoll({
    pool,
    intervalMs: config.PARTITION_ROLL_INTERVAL,
    firstDelayMs: Math.min(config.PARTITION_ROLL_INTERVAL, 60_000),
    logger,
  });
  const listening = await listenOn(built.listener, config.PORT, config.HOST, deps.local);
  logger.info({ url: listening.url }, 'revisions service listening');
  return runningService({
    name: 'revisions',
    url: listening.url,
    health: built.health,
    async stop() {
      stopping = true;
      built.streams.closeAll();
      await listening.close();
      unobserve.forEach((u) => u());
      await consumer.stop();
      await notices.stop();
      await retention.stop();
      await roll.stop();
      await access.stop();
      await sessions.stop();
      await apiTokens.stop();
      await built.close();
      await pool.end();
    },
  });
}
