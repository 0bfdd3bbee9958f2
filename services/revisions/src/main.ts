import { createLogger } from '@vellum/logger';
import { connectNatsMessaging } from '@vellum/messaging';
import { loadNatsUrl, loadRevisionsConfig } from './config';
import { startRevisions } from './start';

// The revisions service as its own process (distributed topology).
async function main() {
  const config = loadRevisionsConfig();
  const logger = createLogger({ name: 'revisions', level: config.LOG_LEVEL });
  const messaging = await connectNatsMessaging({ servers: loadNatsUrl(), name: 'revisions' });
  const service = await startRevisions(config, { logger, messaging });
  const shutdown = async (signal: string) => {
    logger.info({ signal }, 'stopping');
    await service.stop();
    await messaging.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
