// `npm run start:distributed`: every service as its own process (see README "Distributed topology without containers").
import { createLogger } from '@vellum/logger';
import { runProcess } from '@vellum/http';
import { loadLocalConfig } from '../config';
import { startDistributed } from './start-distributed';

void runProcess(
  async () => {
    const config = loadLocalConfig();
    const logger = createLogger({ name: 'vellum-distributed', level: config.LOG_LEVEL });
    const t = Date.now();
    const running = await startDistributed(config, logger);
    logger.info({ url: running.url, ms: Date.now() - t, data: config.dataDir }, `Vellum (distributed) is up at ${config.publicUrl}`);
    console.log(`\nVellum (distributed) is up: ${config.publicUrl}  (gateway on ${running.url}; processes in ${config.dataDir}/distributed.json)\n`);
    return { logger, stop: () => running.stop() };
  },
  { graceMs: 60_000 },
);
