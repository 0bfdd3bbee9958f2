// Scratch databases and migration folders for the migration tests, dropped/removed after all of a file's tests.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { databaseUrl, dropDatabase, ensureDatabases } from '../src';

export const adminUrl = process.env.TEST_DATABASE_URL!;
if (!adminUrl) throw new Error('TEST_DATABASE_URL is not set (run through the root jest config)');

const created: string[] = [];
const dirs: string[] = [];

/** Drops database `name` after the file's tests (one a test creates itself). */
export const dropAfterAll = (name: string): void => void created.push(name);

export async function scratchDatabase(): Promise<string> {
  const name = `vellum_dbtest_${randomBytes(6).toString('hex')}`;
  await ensureDatabases(adminUrl, [name]);
  created.push(name);
  return databaseUrl(adminUrl, name);
}

/** A migrations folder holding `files` (name → migration.sql), as `prisma migrate` lays it out. */
export function migrationsDir(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'vellum-migrations-'));
  dirs.push(dir);
  for (const [name, sql] of Object.entries(files)) {
    mkdirSync(path.join(dir, name));
    writeFileSync(path.join(dir, name, 'migration.sql'), sql);
  }
  writeFileSync(path.join(dir, 'migration_lock.toml'), 'provider = "postgresql"\n');
  return dir;
}

export async function query<T extends object>(url: string, sql: string): Promise<T[]> {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<T>(sql)).rows;
  } finally {
    await c.end();
  }
}

afterAll(async () => {
  for (const name of created) await dropDatabase(adminUrl, name);
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
