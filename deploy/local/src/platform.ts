import path from 'node:path';
import { serviceLogger, type Logger } from '@vellum/logger';
import type { Env } from '@vellum/config';
import { connectNatsMessaging, type Messaging } from '@vellum/messaging';
import { databaseUrl } from '@vellum/db';
import { LocalServices, type RunningService } from '@vellum/http';
import type { Registry } from '@vellum/metrics';
import { loadAuthConfig, startAuth } from '@vellum/auth';
import { loadRevisionsConfig, startRevisions } from '@vellum/revisions';
import { loadItemsConfig, startItems } from '@vellum/items';
import { loadMailerConfig, startMailer } from '@vellum/mailer';
import { loadGatewayConfig, startGateway } from '@vellum/gateway';
import type { LocalConfig } from './config';
import { createEmbeddedMessaging } from './embedded-messaging';
import { startDatabaseServer } from './database-server';
import { MESSAGING_DATABASE, openDurableBuckets } from './durable-buckets';

/** Stopping twice (a test stopped a replica itself, then the platform stops) is a no-op the second time. */
function once(fn: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | undefined;
  return () => (done ??= fn());
}

export const DATABASES = { auth: 'vellum_auth', revisions: 'vellum_revisions', items: 'vellum_items' } as const;

export interface Platform {
  url: string;
  services: Record<'auth' | 'revisions' | 'items' | 'mailer' | 'gateway', RunningService>;
  /** Every revisions replica (the first is `services.revisions`). */
  revisionsReplicas: RunningService[];
  databaseUrls: Record<keyof typeof DATABASES, string>;
  messaging: Messaging;
  /** Stops everything in order: gateway, services, messaging, then the embedded database. */
  stop(): Promise<void>;
}

export interface StartPlatformOptions {
  config: LocalConfig;
  logger: Logger;
  /** Database names (tests pass fresh ones). */
  databases?: Partial<Record<keyof typeof DATABASES, string>>;
  /** Messaging to use (tests share one); otherwise NATS when NATS_URL is set, else in-process. */
  messaging?: Messaging;
  /** Extra variables for every service (tests: short stall times, SMTP settings, ...). */
  overrides?: Env;
  /** The process's metrics registry, shared by every service (their series carry `service`). */
  metrics?: Registry;
}

/**
 * The embedded topology: one process, one PostgreSQL (embedded unless DATABASE_URL names a server) with one
 * database per service, in-process messaging (or NATS), every service on loopback and the gateway on PORT.
 */
export async function startPlatform({ config, logger, databases = {}, messaging: given, overrides = {}, metrics }: StartPlatformOptions): Promise<Platform> {
  const names = { ...DATABASES, ...databases };
  const started: { name: string; stop(): Promise<void> }[] = [];
  const stopAll = async () => {
    for (const s of started.reverse()) {
      try {
        await s.stop();
      } catch (err) {
        logger.error({ err }, `stopping ${s.name} failed`);
      }
    }
  };
  try {
    // in-process messaging keeps the buckets that must survive a crash (the mailer's sent ids) in a database
    const inProcess = !given && !config.messaging;
    const server = await startDatabaseServer(config, logger, [...Object.values(names), ...(inProcess ? [MESSAGING_DATABASE] : [])]);
    if (server.stop) started.push({ name: 'postgres', stop: server.stop });
    const serverUrl = server.url;
    const db = (n: keyof typeof DATABASES) => databaseUrl(serverUrl, names[n]);

    let messaging: Messaging;
    if (given) messaging = given;
    else if (config.messaging) messaging = await connectNatsMessaging(config.messaging);
    else {
      const durable = await openDurableBuckets(databaseUrl(serverUrl, MESSAGING_DATABASE), logger);
      started.push({ name: 'durable buckets', stop: () => durable.close() });
      messaging = createEmbeddedMessaging(durable.stores);
    }
    if (!given) started.push({ name: 'messaging', stop: () => messaging.close() });

    const base: Env = {
      ...config.env,
      LOG_LEVEL: config.LOG_LEVEL,
      PUBLIC_URL: config.publicUrl,
      HOST: '127.0.0.1',
      PORT: '0',
      ...overrides,
    };
    const keysDir = path.join(config.dataDir, 'keys');
    // the gateway hands requests to the services of this process without a loopback socket (same semantics)
    const local = new LocalServices();
    const behindGateway = { TRUST_PROXY: config.servicesTrustProxy };
    const child = (name: string) => serviceLogger(logger, name);

    // The mailer first: it stops last, so the auth relay's mail jobs still reach it while the others drain.
    const mailer = await startMailer(loadMailerConfig({ EMAIL_FILE_DIR: path.join(config.dataDir, 'mail'), ...base }), {
      logger: child('mailer'),
      messaging,
      metrics,
    });
    started.push({ name: 'mailer', stop: () => mailer.stop() });

    const auth = await startAuth(loadAuthConfig({ AUTH_KEYS_DIR: keysDir, ...base, ...behindGateway, DATABASE_URL: db('auth') }), {
      logger: child('auth'),
      messaging,
      local,
      metrics,
    });
    started.push({ name: 'auth', stop: () => auth.stop() });
    const internal = { AUTH_URL: auth.url };

    // Revisions replicas share the database and the event consumer group; the gateway balances between them.
    const revisionsReplicas: RunningService[] = [];
    for (let i = 0; i < config.REVISIONS_REPLICAS; i++) {
      const replica = await startRevisions(loadRevisionsConfig({ ...base, ...internal, ...behindGateway, DATABASE_URL: db('revisions') }), {
        logger: child(i === 0 ? 'revisions' : `revisions-${i + 1}`),
        messaging,
        local,
        metrics,
      });
      const stop = once(() => replica.stop());
      revisionsReplicas.push({ ...replica, stop });
      started.push({ name: `revisions-${i + 1}`, stop });
    }
    const revisions = revisionsReplicas[0];
    const dbUrls = { auth: db('auth'), revisions: db('revisions'), items: db('items') };

    const items = await startItems(loadItemsConfig({ ...base, ...internal, ...behindGateway, DATABASE_URL: db('items') }), {
      logger: child('items'),
      messaging,
      local,
      metrics,
    });
    started.push({ name: 'items', stop: () => items.stop() });

    const gateway = await startGateway(
      loadGatewayConfig({
        ...base,
        HOST: config.HOST,
        PORT: String(config.PORT),
        AUTH_URLS: auth.url,
        REVISIONS_URLS: revisionsReplicas.map((r) => r.url).join(','),
        ITEMS_URLS: items.url,
      }),
      { logger: child('gateway'), messaging, local, metrics },
    );
    started.push({ name: 'gateway', stop: () => gateway.stop() });

    return {
      url: gateway.url,
      services: { auth, revisions, items, mailer, gateway },
      revisionsReplicas,
      databaseUrls: dbUrls,
      messaging,
      stop: stopAll,
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}
