import { readFileSync } from 'node:fs';
import { Client } from 'pg';
import { diffDatabaseAgainstPrismaSchema, parsePrismaSchema } from './prisma-schema';
import { createTestDatabase, type TestDatabase } from './test-database';

export interface MigratedDatabase {
  readonly db: TestDatabase;
  readonly url: string;
  /** A client connected to it (opened in beforeAll, ended in afterAll). */
  readonly pg: Client;
}

/**
 * The database of the enclosing `describe` (or of the file, at the top level): a fresh copy of the migrated
 * template, created with a connected client in beforeAll, both gone in afterAll. Read its fields inside hooks and tests.
 */
export function useMigratedDatabase(migrationsDir: string): MigratedDatabase {
  let db: TestDatabase | undefined;
  let pg: Client | undefined;
  beforeAll(async () => {
    db = await createTestDatabase({ migrationsDir });
    pg = new Client({ connectionString: db.url });
    await pg.connect();
  });
  afterAll(async () => {
    await pg?.end();
    await db?.drop();
  });
  const ready = <T>(v: T | undefined): T => {
    if (v === undefined) throw new Error('useMigratedDatabase: read it in a hook or test, after beforeAll');
    return v;
  };
  return {
    get db() {
      return ready(db);
    },
    get url() {
      return ready(db).url;
    },
    get pg() {
      return ready(pg);
    },
  };
}

/**
 * The two tests that a service's migrations create what its schema.prisma describes: as many models as the
 * generated client has (`modelNames`: its `Prisma.ModelName`), and every table, column (type, nullability) and
 * declared index, and nothing else.
 */
export function itMatchesPrismaSchema(database: MigratedDatabase, schemaPath: string, modelNames?: Record<string, string>): void {
  if (modelNames) {
    it('has exactly the models of the generated client', () => {
      expect(parsePrismaSchema(readFileSync(schemaPath, 'utf8')).size).toBe(Object.keys(modelNames).length);
    });
  }
  it('has every table, column (type, nullability) and declared index, and nothing else', async () => {
    expect(await diffDatabaseAgainstPrismaSchema(database.url, schemaPath)).toEqual([]);
  });
}
