import path from 'node:path';
import { itMatchesPrismaSchema, useMigratedDatabase } from '@vellum/testing';
import { Prisma } from '../src/data/prisma';
import { MIGRATIONS_DIR } from '../src/start';

const SCHEMA = path.join(__dirname, '..', 'prisma', 'schema.prisma');
const database = useMigratedDatabase(MIGRATIONS_DIR);

describe('the migrated database matches the Prisma schema', () => {
  itMatchesPrismaSchema(database, SCHEMA, Prisma.ModelName);

  it('enforces what Prisma cannot express: case-insensitive unique e-mail and the status/action checks', async () => {
    const { pg } = database;
    await pg.query(`INSERT INTO users (id, email) VALUES (gen_random_uuid(), 'Ann@Example.com')`);
    await expect(pg.query(`INSERT INTO users (id, email) VALUES (gen_random_uuid(), 'ann@example.COM')`)).rejects.toThrow(/unique/);
    await expect(pg.query(`INSERT INTO users (id, email, status) VALUES (gen_random_uuid(), 'b@x.io', 'gone')`)).rejects.toThrow(/check/);
    await expect(pg.query(`INSERT INTO permissions (collection, action) VALUES ('a', 'upsert')`)).rejects.toThrow(/check/);
  });
});
