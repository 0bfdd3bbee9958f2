import path from 'node:path';
import { Client } from 'pg';
import { createTestDatabase, diffDatabaseAgainstPrismaSchema, parsePrismaSchema, type TestDatabase } from '@vellum/testing';
import { readFileSync } from 'node:fs';
import { Prisma } from '../src/data/prisma';
import { MIGRATIONS_DIR } from '../src/start';

const SCHEMA = path.join(__dirname, '..', 'prisma', 'schema.prisma');

let db: TestDatabase;
let pg: Client;
beforeAll(async () => {
  db = await createTestDatabase({ migrationsDir: MIGRATIONS_DIR });
  pg = new Client({ connectionString: db.url });
  await pg.connect();
});
afterAll(async () => {
  await pg.end();
  await db.drop();
});

describe('the migrated database matches the Prisma schema', () => {
  it('has exactly the models of the generated client', () => {
    expect(parsePrismaSchema(readFileSync(SCHEMA, 'utf8')).size).toBe(Object.keys(Prisma.ModelName).length);
  });

  it('has every table, column (type, nullability) and declared index, and nothing else', async () => {
    expect(await diffDatabaseAgainstPrismaSchema(db.url, SCHEMA)).toEqual([]);
  });

  it('enforces what Prisma cannot express: case-insensitive unique e-mail and the status/action checks', async () => {
    await pg.query(`INSERT INTO users (id, email) VALUES (gen_random_uuid(), 'Ann@Example.com')`);
    await expect(pg.query(`INSERT INTO users (id, email) VALUES (gen_random_uuid(), 'ann@example.COM')`)).rejects.toThrow(/unique/);
    await expect(pg.query(`INSERT INTO users (id, email, status) VALUES (gen_random_uuid(), 'b@x.io', 'gone')`)).rejects.toThrow(/check/);
    await expect(pg.query(`INSERT INTO permissions (collection, action) VALUES ('a', 'upsert')`)).rejects.toThrow(/check/);
  });
});
