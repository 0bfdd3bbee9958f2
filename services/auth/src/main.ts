// The auth service as its own process (distributed topology): config from the environment, NATS, SIGTERM → drain.
import { createLogger } from '@vellum/logger';
import { runProcess } from '@vellum/http';
import { connectNatsMessaging } from '@vellum/messaging';
import { loadAuthConfig, loadNatsUrl } from './config';
import { startAuth } from './start';

void runProcess(async () => {
  const config = loadAuthConfig();
  const logger = createLogger({ name: 'auth', level: config.LOG_LEVEL });
  const messaging = await connectNatsMessaging({ servers: loadNatsUrl(), name: 'auth' });
  const service = await startAuth(config, { logger, messaging });
  return { logger, stop: async () => (await service.stop(), await messaging.close()) };
});
