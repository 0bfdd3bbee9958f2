// The items service as its own process (distributed topology): config from the environment, NATS, SIGTERM → drain.
import { createLogger } from '@vellum/logger';
import { runProcess, startObservability } from '@vellum/http';
import { connectNatsMessaging } from '@vellum/messaging';
import { loadItemsConfig, natsUrl } from './config';
import { startItems } from './start';

void runProcess(async () => {
  const config = loadItemsConfig();
  const logger = createLogger({ name: 'items', level: config.LOG_LEVEL });
  const observability = await startObservability('items', config, logger);
  const messaging = await connectNatsMessaging({ servers: natsUrl(), name: 'items' });
  const service = await startItems(config, { logger, messaging, metrics: observability.registry });
  return { logger, stop: async () => (await service.stop(), await messaging.close(), await observability.stop()) };
});
