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
import { StopStack } from './stop-stack';

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
  const started = new StopStack(logger);
  return started.starting(async () => {
    // in-process messaging keeps the buckets that must survive a crash (the mailer's sent ids) in a database
    const inProcess = !given && !config.messaging;
    const server = await startDatabaseServer(config, logger, [...Object.values(names), ...(inProcess ? [MESSAGING_DATABASE] : [])]);
    if (server.stop) started.push({ name: 'postgres', stop: server.stop });
    const db = (n: keyof typeof DATABASES) => databaseUrl(server.url, names[n]);
    const messaging = await platformMessaging(config, logger, given, server.url, started);
    const boot: Boot = {
      config,
      messaging,
      metrics,
      started,
      base: { ...config.env, LOG_LEVEL: config.LOG_LEVEL, PUBLIC_URL: config.publicUrl, HOST: '127.0.0.1', PORT: '0', ...overrides },
      // the gateway hands requests to the services of this process without a loopback socket (same semantics)
      local: new LocalServices(),
      behindGateway: { TRUST_PROXY: config.servicesTrustProxy },
      child: (name: string) => serviceLogger(logger, name),
    };
    const { revisionsReplicas, ...services } = await startServices(boot, db);
    return {
      url: services.gateway.url,
      services,
      revisionsReplicas,
      databaseUrls: { auth: db('auth'), revisions: db('revisions'), items: db('items') },
      messaging,
      stop: started.stopAll,
    };
  });
}

/** What every service of the platform is started with. */
interface Boot {
  config: LocalConfig;
  messaging: Messaging;
  metrics?: Registry;
  /** What to stop, in the order it started. */
  started: StopStack;
  /** The variables every service shares. */
  base: Env;
  local: LocalServices;
  behindGateway: Env;
  child: (name: string) => Logger;
}

/** Stops what started, last first; a failure is logged and the rest still stop. */
/** The given messaging, NATS when configured, else in-process with its durable buckets in the database server. */
async function platformMessaging(config: LocalConfig, logger: Logger, given: Messaging | undefined, serverUrl: string, started: StopStack): Promise<Messaging> {
  let messaging: Messaging;
  if (given) messaging = given;
  else if (config.messaging) messaging = await connectNatsMessaging(config.messaging);
  else {
    const durable = await openDurableBuckets(databaseUrl(serverUrl, MESSAGING_DATABASE), logger);
    started.push({ name: 'durable buckets', stop: () => durable.close() });
    messaging = createEmbeddedMessaging(durable.stores);
  }
  if (!given) started.push({ name: 'messaging', stop: () => messaging.close() });
  return messaging;
}

/** Every service, each pushed on `started` as it comes up: the mailer, auth, the revisions replicas, items, the gateway. */
async function startServices(boot: Boot, db: (n: keyof typeof DATABASES) => string): Promise<Platform['services'] & { revisionsReplicas: RunningService[] }> {
  const { config, messaging, metrics, started, base, local, behindGateway, child } = boot;
  // The mailer first: it stops last, so the auth relay's mail jobs still reach it while the others drain.
  const mailer = await startMailer(loadMailerConfig({ EMAIL_FILE_DIR: path.join(config.dataDir, 'mail'), ...base }), {
    logger: child('mailer'),
    messaging,
    metrics,
  });
  started.push({ name: 'mailer', stop: () => mailer.stop() });

  const auth = await startAuth(loadAuthConfig({ AUTH_KEYS_DIR: path.join(config.dataDir, 'keys'), ...base, ...behindGateway, DATABASE_URL: db('auth') }), {
    logger: child('auth'),
    messaging,
    local,
    metrics,
  });
  started.push({ name: 'auth', stop: () => auth.stop() });
  const internal = { AUTH_URL: auth.url };

  const revisionsReplicas = await startRevisionsReplicas(boot, { ...base, ...internal, ...behindGateway, DATABASE_URL: db('revisions') });

  const items = await startItems(
    loadItemsConfig({ ...base, ...internal, ...behindGateway, DATABASE_URL: db('items'), REVISIONS_URL: revisionsReplicas[0]!.url }),
    {
      logger: child('items'),
      messaging,
      local,
      metrics,
    },
  );
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
  return { auth, revisions: revisionsReplicas[0], items, mailer, gateway, revisionsReplicas };
}

/** Revisions replicas share the database and the event consumer group; the gateway balances between them. */
async function startRevisionsReplicas(boot: Boot, env: Env): Promise<RunningService[]> {
  const replicas: RunningService[] = [];
  for (let i = 0; i < boot.config.REVISIONS_REPLICAS; i++) {
    const replica = await startRevisions(loadRevisionsConfig(env), {
      logger: boot.child(i === 0 ? 'revisions' : `revisions-${i + 1}`),
      messaging: boot.messaging,
      local: boot.local,
      metrics: boot.metrics,
    });
    const stop = once(() => replica.stop());
    replicas.push({ ...replica, stop });
    boot.started.push({ name: `revisions-${i + 1}`, stop });
  }
  return replicas;
}
