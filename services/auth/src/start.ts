import path from 'node:path';
import { migrate } from '@vellum/db';
import { listenOn, runningService, type HealthProbe, type LocalServices, type RunningService } from '@vellum/http';
import { observeOutbox, type Registry } from '@vellum/metrics';
import type { Logger } from '@vellum/logger';
import type { Messaging } from '@vellum/messaging';
import { startOutboxRelay } from '@vellum/outbox';
import { createApp } from './app';
import type { AuthConfig } from './config';
import { createPrisma } from './data/prisma';
import { bootstrap } from './domain/bootstrap';
import type { Clock } from './domain/clock';
import type { AuthContext } from './domain/context';
import { authOutboxDestinations } from './events/outbox-destinations';
import { watchTokenUses } from './events/token-uses.watcher';

export const MIGRATIONS_DIR = path.join(__dirname, '..', 'prisma', 'migrations');

export interface StartAuthDeps {
  logger: Logger;
  messaging: Messaging;
  clock?: Clock;
  /** The process's metrics registry. */
  metrics?: Registry;
  /** The embedded topology's in-process services: the gateway hands requests straight to this one's handler. */
  local?: LocalServices;
}

export type RunningAuth = RunningService & { ctx: AuthContext };

/** How long an answer that created a token waits for its entry to be published. */
const TOKEN_PUBLISH_WAIT_MS = 2000;

/** Migrate, connect, bootstrap, start the outbox relay, listen. `stop()` drains in reverse order. */
export async function startAuth(config: AuthConfig, { logger, messaging, clock, metrics, local }: StartAuthDeps): Promise<RunningAuth> {
  await migrate({ connectionString: config.DATABASE_URL, migrationsDir: MIGRATIONS_DIR, log: (m) => logger.info(m), checkOnly: !config.MIGRATE_AT_START });
  const db = createPrisma(config.DATABASE_URL);
  const relay = await startOutboxRelay({
    connectionString: config.DATABASE_URL,
    messaging,
    destinations: authOutboxDestinations,
    logger,
  });
  const probes: Record<string, HealthProbe> = {
    messaging: async () => messaging.health(),
    outbox: async () => {
      const h = await relay.health();
      return { status: h.status, reason: h.reason };
    },
  };
  // a token's entry reaches the bucket before its creation is answered (at most TOKEN_PUBLISH_WAIT_MS)
  const published = () => relay.idle(TOKEN_PUBLISH_WAIT_MS).catch(() => undefined);
  const built = createApp({ db, config, logger, clock, probes, metrics, published });
  const unobserve = metrics ? observeOutbox(metrics, 'auth', () => relay.stats()) : () => undefined;
  try {
    const created = await bootstrap(built.ctx);
    if (created.created) logger.info({ email: created.email }, 'bootstrapped the admin role and user');
  } catch (err) {
    await Promise.allSettled([relay.stop(), built.close(), db.$disconnect()]);
    throw err;
  }
  relay.wake();
  const uses = await watchTokenUses(built.ctx, messaging);
  const server = await listenOn(built.listener, config.PORT, config.HOST, local);
  logger.info({ url: server.url }, 'auth service listening');
  return runningService({
    name: 'auth',
    url: server.url,
    ctx: built.ctx,
    health: built.health,
    async stop() {
      await server.close();
      await uses.stop();
      unobserve();
      await built.close();
      await relay.stop();
      await db.$disconnect();
    },
  });
}
