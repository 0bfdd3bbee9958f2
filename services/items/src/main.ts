// The items service as its own process (distributed topology): config from the environment, NATS, SIGTERM → drain.
import { createLogger } from '@vellum/logger';
import { runProcess } from '@vellum/http';
import { connectNatsMessaging } from '@vellum/messaging';
import { loadItemsConfig, natsUrl } from './config';
import { startItems } from './start';

void runProcess(async () => {
  const config = loadItemsConfig();
  const logger = createLogger({ name: 'items', level: config.LOG_LEVEL });
  const messaging = await connectNatsMessaging({ servers: natsUrl(), name: 'items' });
  const service = await startItems(config, { logger, messaging });
  return { logger, stop: async () => (await service.stop(), await messaging.close()) };
});
