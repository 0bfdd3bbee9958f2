import { createLogger } from '@vellum/logger';
import { connectNatsMessaging } from '@vellum/messaging';
import { loadItemsConfig, natsUrl } from './config';
import { startItems } from './start';

/** The items service as its own process: config from the environment, NATS, SIGTERM → drain. */
async function main() {
  const config = loadItemsConfig();
  const logger = createLogger({ name: 'items', level: config.LOG_LEVEL });
  const messaging = await connectNatsMessaging({ servers: natsUrl(), name: 'items' });
  const running = await startItems(config, { logger, messaging });
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping');
    await running.stop();
    await messaging.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
