import { createLogger } from '@vellum/logger';
import { connectNatsMessaging } from '@vellum/messaging';
import { loadMailerConfig, loadNatsSettings } from './config';
import { startMailer } from './start';

async function main() {
  const config = loadMailerConfig();
  const logger = createLogger({ name: 'mailer', level: config.LOG_LEVEL });
  const nats = loadNatsSettings();
  const messaging = await connectNatsMessaging({ servers: nats.servers, prefix: nats.prefix, name: 'mailer' });
  const service = await startMailer(config, { logger, messaging });
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping: finishing the jobs in hand');
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
