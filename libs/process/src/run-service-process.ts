import { runMigrateCommand } from '@vellum/db';
import { runProcess, startObservability, type ObservabilityConfig, type ProcessObservability } from '@vellum/http';
import { createLogger, type Logger } from '@vellum/logger';
import { connectNatsMessaging, type NatsMessagingOptions } from '@vellum/messaging';

/** What `start<Name>` receives from its process. */
export interface ServiceDeps {
  logger: Logger;
  messaging: Awaited<ReturnType<typeof connectNatsMessaging>>;
  metrics: ProcessObservability['registry'];
}

export interface ServiceProcess<C extends ObservabilityConfig & { LOG_LEVEL: string }> {
  /** The service's name: its logger's and its metrics'. */
  name: string;
  /** load<Name>Config(): throws on a bad configuration. */
  load: () => C;
  /** The service's NATS settings (loadNatsSettings of its config.ts). */
  nats: () => NatsMessagingOptions;
  start: (config: C, deps: ServiceDeps) => Promise<{ stop(): Promise<void> }>;
  /** A service with a database: `main.js migrate` applies these migrations and exits (runMigrateCommand). */
  migrationsDir?: string;
  /** Checks of the configuration that only the standalone process makes (throw a ConfigError). */
  check?: (config: C) => void;
}

/**
 * `services/<name>/src/main.ts`: the service as its own process (distributed topology). Config from the
 * environment, observability first, NATS, `start`; SIGTERM/SIGINT → the service's stop(), NATS, observability last.
 * With a `migrationsDir`, `main.js migrate` is the deployments' migrate step (apply, report, exit) before the
 * replicas start with MIGRATE_AT_START=false.
 */
export function runServiceProcess<C extends ObservabilityConfig & { LOG_LEVEL: string; DATABASE_URL?: string }>(
  service: ServiceProcess<C>,
  argv: readonly string[] = process.argv,
): void {
  if (service.migrationsDir !== undefined && argv[2] === 'migrate') {
    void runMigrateCommand({
      load: () => service.load() as C & { DATABASE_URL: string },
      migrationsDir: service.migrationsDir,
      logger: (level) => createLogger({ name: service.name, level }),
    });
    return;
  }
  void runProcess(async () => {
    const config = service.load();
    service.check?.(config);
    const logger = createLogger({ name: service.name, level: config.LOG_LEVEL });
    const observability = await startObservability(service.name, config, logger);
    const messaging = await connectNatsMessaging(service.nats());
    const running = await service.start(config, { logger, messaging, metrics: observability.registry });
    return { logger, stop: async () => (await running.stop(), await messaging.close(), await observability.stop()) };
  });
}
