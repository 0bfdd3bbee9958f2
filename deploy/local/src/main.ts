// `npm start`: the whole platform in one process (embedded PostgreSQL under ./data, in-process messaging).
import { createLogger } from '@vellum/logger';
import { runProcess, startObservability } from '@vellum/http';
import { loadLocalConfig } from './config';
import { chooseMetricsPort } from './metrics-port';
import { startPlatform } from './platform';

void runProcess(async () => {
  const config = loadLocalConfig();
  const logger = createLogger({ name: 'vellum', level: config.LOG_LEVEL });
  const t = Date.now();
  const metricsPort = await chooseMetricsPort({ port: config.METRICS_PORT, explicit: config.metricsPortExplicit, host: config.METRICS_HOST }, logger);
  const observability = await startObservability('vellum', { ...config, METRICS_PORT: metricsPort }, logger);
  const platform = await startPlatform({ config, logger, metrics: observability.registry });
  logger.info({ url: platform.url, ms: Date.now() - t, data: config.dataDir }, `Vellum is up at ${config.publicUrl}`);
  console.log(`\nVellum is up: ${config.publicUrl}  (gateway listening on ${platform.url}; data in ${config.dataDir})\n`);
  return { logger, stop: async () => (await platform.stop(), await observability.stop()) };
});
