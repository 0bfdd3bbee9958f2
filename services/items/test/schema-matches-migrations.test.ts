import path from 'node:path';
import { Client } from 'pg';
import { createTestDatabase, diffDatabaseAgainstPrismaSchema, type TestDatabase } from '@vellum/testing';
import { MIGRATIONS } from './helpers';

describe('the migrations create what schema.prisma describes', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase({ migrationsDir: MIGRATIONS });
  });
  afterAll(() => db.drop());

  it('has the same tables, columns, types, nullability and declared indexes', async () => {
    expect(await diffDatabaseAgainstPrismaSchema(db.url, path.join(__dirname, '..', 'prisma', 'schema.prisma'))).toEqual([]);
  });

  it('has the schema that holds the collections’ own tables', async () => {
    const c = new Client({ connectionString: db.url });
    await c.connect();
    try {
      expect((await c.query(`SELECT 1 FROM information_schema.schemata WHERE schema_name = 'content'`)).rowCount).toBe(1);
    } finally {
      await c.end();
    }
  });
});
