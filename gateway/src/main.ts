// The gateway as its own process: config from the environment, NATS when NATS_URL is set, SIGTERM → drain.
import { createLogger } from '@vellum/logger';
import { runProcess, startObservability } from '@vellum/http';
import { connectNatsMessaging } from '@vellum/messaging';
import { loadGatewayConfig, loadNatsSettings } from './config';
import { startGateway } from './start';

void runProcess(async () => {
  const config = loadGatewayConfig();
  const logger = createLogger({ name: 'gateway', level: config.LOG_LEVEL });
  const observability = await startObservability('gateway', config, logger);
  const nats = loadNatsSettings();
  const messaging = nats ? await connectNatsMessaging(nats) : undefined;
  const running = await startGateway(config, { logger, messaging, metrics: observability.registry });
  return { logger, stop: async () => (await running.stop(), await messaging?.close(), await observability.stop()) };
});
