import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { databaseUrl, ensureDatabases, migrate, MigrationChecksumError, MigrationsPendingError } from '../src';
import { adminUrl, dropAfterAll, migrationsDir, query, scratchDatabase } from './scratch';

const INIT = 'CREATE TABLE "user" (id serial PRIMARY KEY, email text NOT NULL);\nCREATE INDEX user_email ON "user"(email);\n';
const SECOND = 'ALTER TABLE "user" ADD COLUMN name text;\n';
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

test('applies pending migrations in name order; a second run is a no-op', async () => {
  const url = await scratchDatabase();
  // Created out of order on purpose: the name (timestamp) decides.
  const dir = migrationsDir({ '20240202000000_add_name': SECOND, '20240101000000_init': INIT });
  expect(await migrate({ connectionString: url, migrationsDir: dir })).toEqual({
    applied: ['20240101000000_init', '20240202000000_add_name'],
  });
  expect(await migrate({ connectionString: url, migrationsDir: dir })).toEqual({ applied: [] });
  const rows = await query<{ n: string }>(url, 'SELECT count(*) AS n FROM "_prisma_migrations"');
  expect(rows[0]!.n).toBe('2');
  await query(url, `INSERT INTO "user"(email, name) VALUES ('a@b.c', 'A')`);
});

test('records migrations in _prisma_migrations exactly as Prisma does (sha256 checksums)', async () => {
  const url = await scratchDatabase();
  const dir = migrationsDir({ '20240101000000_init': INIT, '20240202000000_add_name': SECOND });
  await migrate({ connectionString: url, migrationsDir: dir });
  const rows = await query<Record<string, unknown>>(
    url,
    `SELECT id, checksum, migration_name, logs, rolled_back_at, applied_steps_count,
            finished_at IS NOT NULL AND finished_at >= started_at AS finished
       FROM "_prisma_migrations" ORDER BY migration_name`,
  );
  expect(rows).toEqual([
    {
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      checksum: sha256(INIT),
      migration_name: '20240101000000_init',
      logs: null,
      rolled_back_at: null,
      applied_steps_count: 1,
      finished: true,
    },
    {
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      checksum: sha256(SECOND),
      migration_name: '20240202000000_add_name',
      logs: null,
      rolled_back_at: null,
      applied_steps_count: 1,
      finished: true,
    },
  ]);
  const columns = await query<{
    column_name: string;
    data_type: string;
    len: number | null;
    is_nullable: string;
  }>(
    url,
    `SELECT column_name, data_type, character_maximum_length AS len, is_nullable FROM information_schema.columns
      WHERE table_name = '_prisma_migrations' ORDER BY ordinal_position`,
  );
  expect(columns.map((c) => [c.column_name, c.data_type, c.len, c.is_nullable])).toEqual([
    ['id', 'character varying', 36, 'NO'],
    ['checksum', 'character varying', 64, 'NO'],
    ['finished_at', 'timestamp with time zone', null, 'YES'],
    ['migration_name', 'character varying', 255, 'NO'],
    ['logs', 'text', null, 'YES'],
    ['rolled_back_at', 'timestamp with time zone', null, 'YES'],
    ['started_at', 'timestamp with time zone', null, 'NO'],
    ['applied_steps_count', 'integer', null, 'NO'],
  ]);
});

test('two runners starting at once apply each migration once', async () => {
  const url = await scratchDatabase();
  // A slow first migration widens the race window.
  const dir = migrationsDir({
    '20240101000000_init': `SELECT pg_sleep(0.3);\n${INIT}`,
    '20240202000000_add_name': SECOND,
  });
  const [a, b] = await Promise.all([migrate({ connectionString: url, migrationsDir: dir }), migrate({ connectionString: url, migrationsDir: dir })]);
  expect([...a.applied, ...b.applied].sort()).toEqual(['20240101000000_init', '20240202000000_add_name']);
  expect([a.applied.length, b.applied.length].sort()).toEqual([0, 2]);
  const rows = await query<{ n: string }>(url, 'SELECT count(*) AS n FROM "_prisma_migrations"');
  expect(rows[0]!.n).toBe('2');
});

test('refuses, naming the migration, when an applied file changed; applies nothing', async () => {
  const url = await scratchDatabase();
  const dir = migrationsDir({ '20240101000000_init': INIT });
  await migrate({ connectionString: url, migrationsDir: dir });
  writeFileSync(path.join(dir, '20240101000000_init', 'migration.sql'), INIT + '-- edited\n');
  mkdirSync(path.join(dir, '20240202000000_add_name'));
  writeFileSync(path.join(dir, '20240202000000_add_name', 'migration.sql'), SECOND);

  const run = migrate({ connectionString: url, migrationsDir: dir });
  await expect(run).rejects.toBeInstanceOf(MigrationChecksumError);
  await expect(run).rejects.toThrow(/20240101000000_init/);
  const rows = await query<{ migration_name: string }>(url, 'SELECT migration_name FROM "_prisma_migrations"');
  expect(rows.map((r) => r.migration_name)).toEqual(['20240101000000_init']);
  const cols = await query(url, `SELECT 1 FROM information_schema.columns WHERE table_name = 'user' AND column_name = 'name'`);
  expect(cols).toHaveLength(0);
});

test('a failing migration rolls back completely and is not recorded', async () => {
  const url = await scratchDatabase();
  const dir = migrationsDir({
    '20240101000000_init': INIT,
    '20240202000000_broken': 'CREATE TABLE half_done (id int);\nSELECT no_such_function();\n',
  });
  await expect(migrate({ connectionString: url, migrationsDir: dir })).rejects.toThrow(/20240202000000_broken failed and was rolled back: .*no_such_function/);
  const rows = await query<{ migration_name: string }>(url, 'SELECT migration_name FROM "_prisma_migrations"');
  expect(rows.map((r) => r.migration_name)).toEqual(['20240101000000_init']);
  expect(await query(url, `SELECT 1 FROM pg_tables WHERE tablename = 'half_done'`)).toHaveLength(0);
  // The lock was released: fixing the file lets the next run proceed.
  writeFileSync(path.join(dir, '20240202000000_broken', 'migration.sql'), 'CREATE TABLE half_done (id int);\n');
  expect(await migrate({ connectionString: url, migrationsDir: dir })).toEqual({
    applied: ['20240202000000_broken'],
  });
});

test('a migration and its record commit together: if recording fails, the migration is undone', async () => {
  const url = await scratchDatabase();
  // The second migration succeeds, but makes its own INSERT into _prisma_migrations fail.
  const dir = migrationsDir({
    '20240101000000_init': INIT,
    '20240202000000_sabotage':
      'CREATE TABLE half_done (id int);\n' +
      `ALTER TABLE "_prisma_migrations" ADD CONSTRAINT no_sabotage CHECK (migration_name <> '20240202000000_sabotage');\n`,
  });
  await expect(migrate({ connectionString: url, migrationsDir: dir })).rejects.toThrow(/no_sabotage/);
  expect(await query(url, `SELECT 1 FROM pg_tables WHERE tablename = 'half_done'`)).toHaveLength(0);
  expect(await query(url, `SELECT 1 FROM pg_constraint WHERE conname = 'no_sabotage'`)).toHaveLength(0);
});

test('ensureDatabases is idempotent and race-safe; databaseUrl swaps only the database', async () => {
  const name = `vellum_dbtest_${randomBytes(6).toString('hex')}`;
  dropAfterAll(name);
  await Promise.all([ensureDatabases(adminUrl, [name]), ensureDatabases(adminUrl, [name]), ensureDatabases(adminUrl, [name])]);
  await ensureDatabases(adminUrl, [name]);
  const rows = await query<{ db: string }>(databaseUrl(adminUrl, name), 'SELECT current_database() AS db');
  expect(rows[0]!.db).toBe(name);
  expect(databaseUrl('postgres://u:p%40ss@h:5433/postgres?sslmode=disable', 'auth')).toBe('postgres://u:p%40ss@h:5433/auth?sslmode=disable');
});

test('checkOnly applies nothing: pending migrations are an error naming them; none pending is fine', async () => {
  const url = await scratchDatabase();
  const dir = migrationsDir({ '20240101000000_init': INIT, '20240202000000_add_name': SECOND });
  const check = () => migrate({ connectionString: url, migrationsDir: dir, checkOnly: true });
  await expect(check()).rejects.toThrow(MigrationsPendingError);
  await expect(check()).rejects.toThrow(/2 migrations are not applied yet \(20240101000000_init, 20240202000000_add_name\): run the migrate step first/);
  expect(await query(url, `SELECT 1 FROM pg_tables WHERE tablename = 'user'`)).toEqual([]);
  await migrate({ connectionString: url, migrationsDir: dir });
  expect(await check()).toEqual({ applied: [] });
});
