// The revisions service as its own process (distributed topology): config from the environment, NATS, SIGTERM → drain.
import { createLogger } from '@vellum/logger';
import { runProcess, startObservability } from '@vellum/http';
import { connectNatsMessaging } from '@vellum/messaging';
import { loadNatsUrl, loadRevisionsConfig } from './config';
import { startRevisions } from './start';

void runProcess(async () => {
  const config = loadRevisionsConfig();
  const logger = createLogger({ name: 'revisions', level: config.LOG_LEVEL });
  const observability = await startObservability('revisions', config, logger);
  const messaging = await connectNatsMessaging({ servers: loadNatsUrl(), name: 'revisions' });
  const service = await startRevisions(config, { logger, messaging, metrics: observability.registry });
  return { logger, stop: async () => (await service.stop(), await messaging.close(), await observability.stop()) };
});
