import { createLogger } from '@vellum/logger';
import { connectNatsMessaging, type Messaging } from '@vellum/messaging';
import { loadGatewayConfig, natsUrl } from './config';
import { startGateway } from './start';

/** The gateway as its own process: config from the environment, NATS when NATS_URL is set, SIGTERM → drain. */
async function main() {
  const config = loadGatewayConfig();
  const logger = createLogger({ name: 'gateway', level: config.LOG_LEVEL });
  const servers = natsUrl();
  let messaging: Messaging | undefined;
  if (servers) messaging = await connectNatsMessaging({ servers, name: 'gateway' });
  const running = await startGateway(config, { logger, messaging });
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping');
    await running.stop();
    await messaging?.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
