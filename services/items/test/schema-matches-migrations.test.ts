import path from 'node:path';
import { itMatchesPrismaSchema, useMigratedDatabase } from '@vellum/testing';
import { MIGRATIONS } from './helpers';

describe('the migrations create what schema.prisma describes', () => {
  const database = useMigratedDatabase(MIGRATIONS);

  itMatchesPrismaSchema(database, path.join(__dirname, '..', 'prisma', 'schema.prisma'));

  it('has the schema that holds the collections’ own tables', async () => {
    expect((await database.pg.query(`SELECT 1 FROM information_schema.schemata WHERE schema_name = 'content'`)).rowCount).toBe(1);
  });
});
