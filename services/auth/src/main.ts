import { createLogger } from '@vellum/logger';
import { connectNatsMessaging } from '@vellum/messaging';
import { loadAuthConfig, loadNatsUrl } from './config';
import { startAuth } from './start';

async function main() {
  const config = loadAuthConfig();
  const logger = createLogger({ name: 'auth', level: config.LOG_LEVEL });
  const messaging = await connectNatsMessaging({ servers: loadNatsUrl(), name: 'auth' });
  const service = await startAuth(config, { logger, messaging });
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping');
    await service.stop();
    await messaging.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
