// `npm start`: the whole platform in one process (embedded PostgreSQL under ./data, in-process messaging).
import { createLogger } from '@vellum/logger';
import { loadLocalConfig } from './config';
import { startPlatform } from './platform';

async function main() {
  const config = loadLocalConfig();
  const logger = createLogger({ name: 'vellum', level: config.LOG_LEVEL });
  const t = Date.now();
  const platform = await startPlatform({ config, logger });
  logger.info({ url: platform.url, ms: Date.now() - t, data: config.dataDir }, `Vellum is up at ${config.publicUrl}`);
  console.log(`\nVellum is up: ${config.publicUrl}  (gateway listening on ${platform.url}; data in ${config.dataDir})\n`);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) {
      logger.warn(`${signal} again: exiting now`);
      process.exit(1);
    }
    stopping = true;
    logger.info(`${signal}: stopping`);
    const force = setTimeout(() => {
      logger.error('shutdown took longer than 20 s: exiting');
      process.exit(1);
    }, 20_000);
    force.unref();
    await platform.stop();
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((err) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exit(1);
});
