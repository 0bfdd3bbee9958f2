import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { createTestDatabase, type TestDatabase } from '@vellum/testing';
import { MIGRATIONS } from './helpers';

/** The scalar columns schema.prisma declares: table → column → [PostgreSQL type, nullable]. */
function prismaColumns(): Map<string, Map<string, [string, boolean]>> {
  const text = readFileSync(path.join(__dirname, '..', 'prisma', 'schema.prisma'), 'utf8');
  const out = new Map<string, Map<string, [string, boolean]>>();
  for (const m of text.matchAll(/^model (\w+) \{\n([\s\S]*?)^\}/gm)) {
    const body = m[2]!;
    const table = /@@map\("(\w+)"\)/.exec(body)?.[1] ?? m[1]!;
    const cols = new Map<string, [string, boolean]>();
    for (const line of body.split('\n').map((l) => l.trim())) {
      const f = /^(\w+)\s+(\w+)(\?|\[\])?\s*(.*)$/.exec(line);
      if (!f || line.startsWith('@@') || line.startsWith('///')) continue;
      const [, name, type, mod, attrs] = f;
      if (mod === '[]' || /@relation/.test(attrs!)) continue;
      const db = /@db\.(\w+)/.exec(attrs!)?.[1];
      const pg =
        db === 'Uuid' ? 'uuid'
        : db === 'Timestamptz' ? 'timestamp with time zone'
        : ({ String: 'text', Int: 'integer', BigInt: 'bigint', Boolean: 'boolean', Json: 'jsonb', DateTime: 'timestamp without time zone' } as Record<string, string>)[type!];
      cols.set(name!, [pg!, mod === '?']);
    }
    out.set(table, cols);
  }
  return out;
}

describe('the migrations create what schema.prisma describes', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase({ migrationsDir: MIGRATIONS });
  });
  afterAll(() => db.drop());

  it('has the same tables, columns, types and nullability', async () => {
    const c = new Client({ connectionString: db.url });
    await c.connect();
    try {
      const r = await c.query<{ table_name: string; column_name: string; data_type: string; is_nullable: string }>(
        `SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns
          WHERE table_schema = 'public' AND table_name <> '_prisma_migrations'`,
      );
      const actual = new Map<string, Map<string, [string, boolean]>>();
      for (const row of r.rows) {
        if (!actual.has(row.table_name)) actual.set(row.table_name, new Map());
        actual.get(row.table_name)!.set(row.column_name, [row.data_type, row.is_nullable === 'YES']);
      }
      const expected = prismaColumns();
      expect([...actual.keys()].sort()).toEqual([...expected.keys()].sort());
      for (const [table, cols] of expected) expect(Object.fromEntries(actual.get(table)!)).toEqual(Object.fromEntries(cols));
      const schemas = await c.query(`SELECT 1 FROM information_schema.schemata WHERE schema_name = 'content'`);
      expect(schemas.rowCount).toBe(1);
    } finally {
      await c.end();
    }
  });
});
