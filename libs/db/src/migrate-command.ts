import { migrate } from './migrate';

export interface MigrateCommandOptions {
  /** The service's config loader; throws on a bad configuration. */
  load: () => { DATABASE_URL: string; LOG_LEVEL?: string };
  migrationsDir: string;
  /** The service's logger, made once its configuration is read. */
  logger: (level: string | undefined) => { info(msg: string): void; error(msg: string): void };
  /** For tests: what "exit" means. */
  exit?: (code: number) => void;
}

/**
 * `node <service>/dist/main.js migrate`: the deployments' migrate step (a Kubernetes init container) applies the
 * service's migrations, reports on one line and exits before the replicas start with MIGRATE_AT_START=false.
 * Exit codes: 0 applied or up to date, 1 the migration failed or the database is unreachable, 2 bad configuration.
 */
export async function runMigrateCommand(opts: MigrateCommandOptions): Promise<void> {
  const { exit = (code: number) => process.exit(code) } = opts;
  let config: ReturnType<MigrateCommandOptions['load']>;
  try {
    config = opts.load();
  } catch (e) {
    console.error(`migrate: ${(e as Error).message}`);
    return exit(2);
  }
  const logger = opts.logger(config.LOG_LEVEL);
  try {
    const { applied } = await migrate({
      connectionString: config.DATABASE_URL,
      migrationsDir: opts.migrationsDir,
      log: (m) => logger.info(m),
    });
    logger.info(applied.length ? `migrate: applied ${applied.length} migration(s)` : 'migrate: nothing to apply');
    exit(0);
  } catch (e) {
    logger.error(`migrate failed: ${(e as Error).message}`);
    exit(1);
  }
}
