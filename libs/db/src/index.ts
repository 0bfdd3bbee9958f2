export {
  migrate,
  MigrationChecksumError,
  MigrationFailedError,
  readMigrations,
  migrationChecksum,
  MIGRATION_LOCK_KEY,
} from './migrate';
export type { MigrateOptions, MigrationFile } from './migrate';
export { ensureDatabases, databaseUrl, databaseName, dropDatabase, withClient } from './databases';
export { startEmbeddedPostgres } from './embedded-postgres';
export { stopOrphanedPostgres, EmbeddedPostgresBusyError } from './recover-previous-run';
export type { EmbeddedPostgresOptions, EmbeddedPostgresHandle } from './embedded-postgres';
