export {
  migrate,
  MigrationChecksumError,
  MigrationFailedError,
  MigrationsPendingError,
  readMigrations,
  migrationChecksum,
  MIGRATION_LOCK_KEY,
} from './migrate';
export type { MigrateOptions, MigrationFile } from './migrate';
export { NO_TRANSACTION } from './no-transaction-migration';
export { runMigrateCommand } from './migrate-command';
export type { MigrateCommandOptions } from './migrate-command';
export { ensureDatabases, databaseUrl, databaseName, dropDatabase, withClient } from './databases';
export { startEmbeddedPostgres } from './embedded-postgres';
export { stopOrphanedPostgres, EmbeddedPostgresBusyError } from './recover-previous-run';
export type { EmbeddedPostgresOptions, EmbeddedPostgresHandle } from './embedded-postgres';
export { afterCommit, inTransaction, isBroken, settleAtCommit, withConnection, withTransaction } from './transaction';
