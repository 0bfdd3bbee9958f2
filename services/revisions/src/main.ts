// The revisions service as its own process (distributed topology): config from the environment, NATS, SIGTERM → drain.
import { createLogger } from '@vellum/logger';
import { runMigrateCommand } from '@vellum/db';
import { runProcess, startObservability } from '@vellum/http';
import { connectNatsMessaging } from '@vellum/messaging';
import { loadNatsSettings, loadRevisionsConfig } from './config';
import { RETENTION_COMMANDS, runRetentionCommand } from './retention-commands';
import { MIGRATIONS_DIR, startRevisions } from './start';

// `main.js migrate`: the deployments' migrate step (apply, report, exit) before replicas start with MIGRATE_AT_START=false
if (process.argv[2] === 'migrate') {
  void runMigrateCommand({
    load: () => loadRevisionsConfig(),
    migrationsDir: MIGRATIONS_DIR,
    logger: (level) => createLogger({ name: 'revisions', level }),
  });
} else if (RETENTION_COMMANDS.includes(process.argv[2] ?? '')) {
  void runRetentionCommand(process.argv.slice(2), (level) => createLogger({ name: 'revisions', level }));
} else {
  void runProcess(async () => {
    const config = loadRevisionsConfig();
    const logger = createLogger({ name: 'revisions', level: config.LOG_LEVEL });
    const observability = await startObservability('revisions', config, logger);
    const messaging = await connectNatsMessaging(loadNatsSettings());
    const service = await startRevisions(config, { logger, messaging, metrics: observability.registry });
    return { logger, stop: async () => (await service.stop(), await messaging.close(), await observability.stop()) };
  });
}
