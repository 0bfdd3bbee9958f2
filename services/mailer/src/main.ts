// The mailer as its own process: config from the environment, NATS; SIGTERM → finish the jobs in hand, then exit.
import { createLogger } from '@vellum/logger';
import { runProcess, startObservability } from '@vellum/http';
import { connectNatsMessaging } from '@vellum/messaging';
import { loadMailerConfig, loadNatsSettings } from './config';
import { startMailer } from './start';

void runProcess(async () => {
  const config = loadMailerConfig();
  const logger = createLogger({ name: 'mailer', level: config.LOG_LEVEL });
  const observability = await startObservability('mailer', config, logger);
  const messaging = await connectNatsMessaging(loadNatsSettings());
  const service = await startMailer(config, { logger, messaging, metrics: observability.registry });
  return { logger, stop: async () => (await service.stop(), await messaging.close(), await observability.stop()) };
});
