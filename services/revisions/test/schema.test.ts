import path from 'node:path';
import { itMatchesPrismaSchema, useMigratedDatabase } from '@vellum/testing';
import { MIGRATIONS_DIR } from '../src/start';

const SCHEMA = path.join(__dirname, '..', 'prisma', 'schema.prisma');
const database = useMigratedDatabase(MIGRATIONS_DIR);

describe('the migrated database matches the Prisma schema', () => {
  itMatchesPrismaSchema(database, SCHEMA);

  it('has no foreign keys (activity and parent are kept by the writer and retention: see the partitioning migration)', async () => {
    const fks = await database.pg.query<{ name: string }>(`SELECT conname AS name FROM pg_constraint WHERE contype = 'f' ORDER BY 1`);
    expect(fks.rows.map((r) => r.name)).toEqual([]);
  });
});
