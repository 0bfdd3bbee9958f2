// `main.ts prune` and `main.ts import-archive <manifest.json>…` (in an image: node services/revisions/dist/main.js …):
// run retention now with the service's configuration, or put archived rows back. Exit 0 done, 1 failed, 2 usage.
import { withTransaction } from '@vellum/db';
import type { Logger } from '@vellum/logger';
import { loadRevisionsConfig, retentionPolicy } from './config';
import { createPool } from './data/pool';
import { importRows } from './data/retention.repository';
import { readArchive } from './domain/archive-file';
import { scheduleRetention } from './domain/retention.scheduler';

export const RETENTION_COMMANDS = ['prune', 'import-archive'];
const IMPORT_CHUNK = 1000;

export async function runRetentionCommand(argv: string[], makeLogger: (level: string) => Logger, exit = (code: number) => process.exit(code)): Promise<void> {
  const [command, ...args] = argv;
  let config: ReturnType<typeof loadRevisionsConfig>;
  try {
    config = loadRevisionsConfig();
  } catch (e) {
    console.error(`${command}: ${(e as Error).message}`);
    return exit(2);
  }
  const logger = makeLogger(config.LOG_LEVEL);
  const policy = retentionPolicy(config);
  if (command === 'prune' && policy.revisionsMaxAgeMs === undefined && policy.activityMaxAgeMs === undefined) {
    console.error('prune: nothing to do: set REVISIONS_RETENTION and/or ACTIVITY_RETENTION');
    return exit(2);
  }
  if (command === 'import-archive' && args.length === 0) {
    console.error('usage: import-archive <file.ndjson.gz.manifest.json>… (activity archives before the revisions archives of the same run)');
    return exit(2);
  }
  const pool = createPool(config.DATABASE_URL, 2, { randomPageCost: config.DB_RANDOM_PAGE_COST });
  try {
    if (command === 'prune') {
      const report = await scheduleRetention({
        pool,
        policy,
        intervalMs: config.RETENTION_INTERVAL,
        schedule: false,
        logger,
      }).runNow();
      if (!report) logger.info('prune: another replica is running retention now; nothing done');
    } else {
      for (const manifestPath of args) {
        const { manifest, lines } = await readArchive(manifestPath);
        const imported = await withTransaction(pool, async (client) => {
          let n = 0;
          for (let i = 0; i < lines.length; i += IMPORT_CHUNK) n += await importRows(client, manifest.entity, lines.slice(i, i + IMPORT_CHUNK));
          return n;
        });
        logger.info(
          { file: manifest.file, rows: manifest.rows, imported },
          `import-archive: ${imported} of ${manifest.rows} ${manifest.entity} rows imported (the rest were present)`,
        );
      }
    }
    await pool.end();
    exit(0);
  } catch (e) {
    logger.error(`${command} failed: ${(e as Error).message}`);
    await pool.end().catch(() => undefined);
    exit(1);
  }
}
