import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { createTestDatabase, diffDatabaseAgainstPrismaSchema, parsePrismaSchema, type TestDatabase } from '@vellum/testing';
import { Prisma } from '../src/generated/prisma/client';
import { MIGRATIONS_DIR } from '../src/start';

const SCHEMA = path.join(__dirname, '..', 'prisma', 'schema.prisma');

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase({ migrationsDir: MIGRATIONS_DIR });
});
afterAll(() => db.drop());

describe('the migrated database matches the Prisma schema', () => {
  it('has the models of the generated client', () => {
    expect(parsePrismaSchema(readFileSync(SCHEMA, 'utf8')).size).toBe(Object.keys(Prisma.ModelName).length);
  });

  it('has every table, column (type, nullability) and declared index (the read paths), and nothing else', async () => {
    expect(await diffDatabaseAgainstPrismaSchema(db.url, SCHEMA)).toEqual([]);
  });

  it('has the foreign keys', async () => {
    const pg = new Client({ connectionString: db.url });
    await pg.connect();
    try {
      const fks = await pg.query<{ name: string }>(`SELECT conname AS name FROM pg_constraint WHERE contype = 'f' ORDER BY 1`);
      expect(fks.rows.map((r) => r.name)).toEqual(['revisions_activity_fkey', 'revisions_parent_fkey']);
    } finally {
      await pg.end();
    }
  });
});
