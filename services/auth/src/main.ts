// The auth service as its own process (distributed topology): config from the environment, NATS, SIGTERM → drain.
import { ConfigError } from '@vellum/config';
import { createLogger } from '@vellum/logger';
import { runMigrateCommand } from '@vellum/db';
import { runProcess, startObservability } from '@vellum/http';
import { connectNatsMessaging } from '@vellum/messaging';
import { loadAuthConfig, loadNatsSettings } from './config';
import { MIGRATIONS_DIR, startAuth } from './start';

// `main.js migrate`: the deployments' migrate step (apply, report, exit) before replicas start with MIGRATE_AT_START=false
if (process.argv[2] === 'migrate') {
  void runMigrateCommand({
    load: () => loadAuthConfig(),
    migrationsDir: MIGRATIONS_DIR,
    logger: (level) => createLogger({ name: 'auth', level }),
  });
} else {
  void runProcess(async () => {
    const config = loadAuthConfig();
    // Outside the embedded topology the signing key is a secret with no default: an in-memory key would differ
    // per replica and die with the process.
    if (!config.AUTH_PRIVATE_KEY && !config.AUTH_KEYS_DIR) {
      throw new ConfigError([
        'AUTH_PRIVATE_KEY: is required (or AUTH_PRIVATE_KEY_FILE, or AUTH_KEYS_DIR to keep a generated key)',
      ]);
    }
    const logger = createLogger({ name: 'auth', level: config.LOG_LEVEL });
    const observability = await startObservability('auth', config, logger);
    const messaging = await connectNatsMessaging(loadNatsSettings());
    const service = await startAuth(config, { logger, messaging, metrics: observability.registry });
    return { logger, stop: async () => (await service.stop(), await messaging.close(), await observability.stop()) };
  });
}
