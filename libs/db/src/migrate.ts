// A Prisma-compatible SQL migration runner: applies `<dir>/<timestamp>_<name>/migration.sql` in name order and
// records each one in `_prisma_migrations` exactly as `prisma migrate deploy` does (same table, sha256 checksum),
// so a machine with the Prisma engines sees them as applied. One transaction per migration; replicas starting at
// once serialise on Prisma's own advisory lock key, held by a dedicated connection.
import { createHash, randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Client } from 'pg';
import { isNoTransaction, runWithoutTransaction } from './no-transaction-migration';
import { inTransaction } from './transaction';

/** The advisory lock key `prisma migrate` uses, so this runner and Prisma's also exclude each other. */
export const MIGRATION_LOCK_KEY = 72707369;

/** An already-applied migration's file changed since it was applied. Nothing was applied. */
export class MigrationChecksumError extends Error {
  constructor(readonly migrations: ReadonlyArray<{ name: string; applied: string; current: string }>) {
    super(
      `Refusing to migrate: ${migrations.length === 1 ? 'migration' : 'migrations'} ` +
        migrations.map((m) => `"${m.name}"`).join(', ') +
        ` changed after being applied (checksum in _prisma_migrations ${migrations
          .map((m) => m.applied.slice(0, 12))
          .join(', ')}… ≠ file ${migrations.map((m) => m.current.slice(0, 12)).join(', ')}…). ` +
        'Applied migrations are immutable: restore the file and add a new migration instead.',
    );
    this.name = 'MigrationChecksumError';
  }
}

/** A migration that Prisma (or a crash) left started but not finished and not rolled back. */
export class MigrationFailedError extends Error {
  constructor(readonly migration: string) {
    super(
      `Refusing to migrate: migration "${migration}" is recorded in _prisma_migrations as started but never ` +
        'finished. Repair the database, then mark it with `prisma migrate resolve --applied|--rolled-back`.',
    );
    this.name = 'MigrationFailedError';
  }
}

/** `checkOnly`: migrations are pending and this process may not apply them (a separate migrate step does). */
export class MigrationsPendingError extends Error {
  constructor(readonly pending: readonly string[]) {
    super(
      `${pending.length} migration${pending.length === 1 ? ' is' : 's are'} not applied yet (${pending.join(', ')}): ` +
        'run the migrate step first (`node <service>/dist/main.js migrate`), or start with MIGRATE_AT_START=true.',
    );
    this.name = 'MigrationsPendingError';
  }
}

export interface MigrationFile {
  name: string;
  file: string;
  sql: string;
  checksum: string;
}

export interface MigrateOptions {
  connectionString: string;
  migrationsDir: string;
  log?: (msg: string) => void;
  /** Apply nothing: check checksums and throw MigrationsPendingError when a migration is not applied yet. */
  checkOnly?: boolean;
}

/** sha256 hex of the file's bytes — the checksum Prisma stores. */
export function migrationChecksum(sql: string | Buffer): string {
  return createHash('sha256').update(sql).digest('hex');
}

/** The migrations in `migrationsDir`, in the order Prisma applies them (directory name order). */
export async function readMigrations(migrationsDir: string): Promise<MigrationFile[]> {
  const entries = await readdir(migrationsDir, { withFileTypes: true });
  const dirs = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  const out: MigrationFile[] = [];
  for (const name of dirs) {
    const file = path.join(migrationsDir, name, 'migration.sql');
    let bytes: Buffer;
    try {
      bytes = await readFile(file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw err;
    }
    out.push({ name, file, sql: bytes.toString('utf8'), checksum: migrationChecksum(bytes) });
  }
  return out;
}

// The DDL Prisma's schema engine uses for PostgreSQL.
const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

interface AppliedRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
}

/** `?schema=` (Prisma's convention) → the schema to migrate into; pg itself ignores the parameter. */
function schemaOf(connectionString: string): string | undefined {
  try {
    return new URL(connectionString).searchParams.get('schema') ?? undefined;
  } catch {
    return undefined;
  }
}

/** Prisma also accepts a file whose only difference is CRLF line endings. */
function sameChecksum(applied: string, m: MigrationFile): boolean {
  return applied === m.checksum || applied === migrationChecksum(m.sql.replace(/\r\n/g, '\n'));
}

/**
 * Apply every pending migration. Safe to call from several processes at once (one applies, the others wait and
 * then find nothing to do). Throws MigrationChecksumError, before applying anything, if an applied file changed.
 */
export async function migrate(opts: MigrateOptions): Promise<{ applied: string[] }> {
  const log = opts.log ?? (() => undefined);
  const migrations = await readMigrations(opts.migrationsDir);
  const schema = schemaOf(opts.connectionString);

  // The lock lives on its own session so that no transaction outcome on the working connection can release it.
  const lock = new Client({
    connectionString: opts.connectionString,
    application_name: 'vellum-migrate-lock',
  });
  const db = new Client({ connectionString: opts.connectionString, application_name: 'vellum-migrate' });
  lock.on('error', () => undefined);
  db.on('error', () => undefined);
  await lock.connect();
  try {
    await db.connect();
    await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      if (schema) {
        const id = db.escapeIdentifier(schema);
        if (!opts.checkOnly) await db.query(`CREATE SCHEMA IF NOT EXISTS ${id}`);
        await db.query(`SET search_path TO ${id}`);
      }
      // checkOnly writes nothing: a database without the table has every migration pending
      const exists = (await db.query(`SELECT to_regclass('"_prisma_migrations"') IS NOT NULL AS ok`)).rows[0].ok;
      if (!exists && !opts.checkOnly) await db.query(CREATE_TABLE);
      const { rows } =
        exists || !opts.checkOnly
          ? await db.query<AppliedRow>(`SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations" ORDER BY started_at`)
          : { rows: [] as AppliedRow[] };
      const live = rows.filter((r) => r.rolled_back_at === null);
      // a no-transaction migration left started (interrupted) is run again below; any other is for an operator
      const byName = new Map(migrations.map((m) => [m.name, m]));
      const resumable = (r: AppliedRow) => {
        const m = byName.get(r.migration_name);
        return m !== undefined && isNoTransaction(m.sql) && sameChecksum(r.checksum, m);
      };
      const failed = live.find((r) => r.finished_at === null && !resumable(r));
      if (failed) throw new MigrationFailedError(failed.migration_name);
      const interrupted = new Set(live.filter((r) => r.finished_at === null).map((r) => r.migration_name));

      const applied = new Map(live.map((r) => [r.migration_name, r.checksum]));
      const changed = migrations
        .filter((m) => applied.has(m.name) && !sameChecksum(applied.get(m.name)!, m))
        .map((m) => ({ name: m.name, applied: applied.get(m.name)!, current: m.checksum }));
      if (changed.length > 0) throw new MigrationChecksumError(changed);
      const known = new Set(migrations.map((m) => m.name));
      for (const name of applied.keys()) {
        if (!known.has(name)) log(`migration ${name} is applied but has no file in ${opts.migrationsDir}`);
      }

      const pending = migrations.filter((m) => !applied.has(m.name) || interrupted.has(m.name));
      if (opts.checkOnly && pending.length > 0) throw new MigrationsPendingError(pending.map((m) => m.name));
      const done: string[] = [];
      for (const m of pending) {
        const started = Date.now();
        if (isNoTransaction(m.sql)) {
          await applyWithoutTransaction(db, m, interrupted.has(m.name));
          done.push(m.name);
          log(`applied migration ${m.name} outside a transaction (${Date.now() - started} ms)`);
          continue;
        }
        try {
          await inTransaction(db, async () => {
            await db.query(m.sql);
            await db.query(
              `INSERT INTO "_prisma_migrations"
                 (id, checksum, finished_at, migration_name, logs, rolled_back_at, started_at, applied_steps_count)
               VALUES ($1, $2, clock_timestamp(), $3, NULL, NULL, now(), 1)`,
              [randomUUID(), m.checksum, m.name],
            );
          });
        } catch (err) {
          const e = err as Error & { position?: string };
          e.message = `migration ${m.name} failed and was rolled back: ${e.message}`;
          throw e;
        }
        done.push(m.name);
        log(`applied migration ${m.name} (${Date.now() - started} ms)`);
      }
      if (done.length === 0) log(`database up to date (${migrations.length} migrations)`);
      return { applied: done };
    } finally {
      await lock.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    }
  } finally {
    await Promise.allSettled([db.end(), lock.end()]);
  }
}

/**
 * A no-transaction migration: recorded as started (unless resuming its interrupted run), its statements run one by
 * one, then recorded as finished. A failure leaves it started, to be run again at the next start.
 */
async function applyWithoutTransaction(db: Client, m: MigrationFile, resuming: boolean): Promise<void> {
  if (!resuming)
    await db.query(
      `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, logs, rolled_back_at, started_at, applied_steps_count)
       VALUES ($1, $2, NULL, $3, NULL, NULL, now(), 0)`,
      [randomUUID(), m.checksum, m.name],
    );
  let steps: number;
  try {
    steps = await runWithoutTransaction(db, m.name, m.sql);
  } catch (err) {
    const e = err as Error;
    e.message = `migration ${m.name} (outside a transaction) failed; it is recorded as started and runs again from its first statement at the next start: ${e.message}`;
    throw e;
  }
  await db.query(
    `UPDATE "_prisma_migrations" SET finished_at = clock_timestamp(), applied_steps_count = $2
      WHERE migration_name = $1 AND finished_at IS NULL AND rolled_back_at IS NULL`,
    [m.name, steps],
  );
}
