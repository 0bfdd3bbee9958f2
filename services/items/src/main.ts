// The items service as its own process (distributed topology): config from the environment, NATS, SIGTERM → drain.
import { createLogger } from '@vellum/logger';
import { runMigrateCommand } from '@vellum/db';
import { runProcess, startObservability } from '@vellum/http';
import { connectNatsMessaging } from '@vellum/messaging';
import { loadItemsConfig, loadNatsSettings } from './config';
import { MIGRATIONS_DIR, startItems } from './start';

// `main.js migrate`: the deployments' migrate step (apply, report, exit) before replicas start with MIGRATE_AT_START=false
if (process.argv[2] === 'migrate') {
  void runMigrateCommand({
    load: () => loadItemsConfig(),
    migrationsDir: MIGRATIONS_DIR,
    logger: (level) => createLogger({ name: 'items', level }),
  });
} else {
  void runProcess(async () => {
    const config = loadItemsConfig();
    const logger = createLogger({ name: 'items', level: config.LOG_LEVEL });
    const observability = await startObservability('items', config, logger);
    const messaging = await connectNatsMessaging(loadNatsSettings());
    const service = await startItems(config, { logger, messaging, metrics: observability.registry });
    return { logger, stop: async () => (await service.stop(), await messaging.close(), await observability.stop()) };
  });
}
