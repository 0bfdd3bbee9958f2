import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { createTestDatabase, type TestDatabase } from '@vellum/testing';
import { Prisma } from '../src/generated/prisma/client';
import { MIGRATIONS_DIR } from '../src/start';

interface Field {
  type: string;
  optional: boolean;
  native?: string;
}
const SCALARS = ['String', 'Int', 'BigInt', 'Boolean', 'DateTime', 'Json'];

/** The Prisma schema, parsed: table → column → field; plus the indexes it declares. */
function parseSchema(text: string) {
  const tables = new Map<string, Map<string, Field>>();
  const indexes = new Map<string, { columns: string[]; unique: boolean }[]>();
  for (const m of text.matchAll(/model\s+(\w+)\s*\{([\s\S]*?)\n\}/g)) {
    const body = m[2]!;
    const table = /@@map\("([^"]+)"\)/.exec(body)?.[1] ?? m[1]!;
    const fields = new Map<string, Field>();
    const idx: { columns: string[]; unique: boolean }[] = [];
    for (const line of body.split('\n')) {
      const f = /^\s+(\w+)\s+(\w+)(\[\])?(\?)?(.*)$/.exec(line);
      if (f && SCALARS.includes(f[2]!) && !f[3]) {
        fields.set(f[1]!, { type: f[2]!, optional: !!f[4], native: /@db\.(\w+)/.exec(f[5]!)?.[1] });
        if (/@unique/.test(f[5]!)) idx.push({ columns: [f[1]!], unique: true });
        if (/@id/.test(f[5]!)) idx.push({ columns: [f[1]!], unique: true });
      }
      const i = /^\s+@@(index|unique|id)\(\[([^\]]+)\]/.exec(line);
      if (i) idx.push({ columns: i[2]!.split(',').map((s) => s.trim()), unique: i[1] !== 'index' });
    }
    tables.set(table, fields);
    indexes.set(table, idx);
  }
  return { tables, indexes };
}

const udt = (f: Field) =>
  f.type === 'DateTime' ? (f.native === 'Timestamptz' ? 'timestamptz' : 'timestamp') : { String: 'text', Int: 'int4', BigInt: 'int8', Boolean: 'bool', Json: 'jsonb' }[f.type];

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
  const { tables, indexes } = parseSchema(readFileSync(path.join(__dirname, '..', 'prisma', 'schema.prisma'), 'utf8'));

  it('has the models of the generated client', () => {
    expect(tables.size).toBe(Object.keys(Prisma.ModelName).length);
  });

  it('has every column with its type and nullability, and no other', async () => {
    const { rows } = await pg.query<{ table_name: string; column_name: string; udt_name: string; is_nullable: string }>(
      `SELECT table_name, column_name, udt_name, is_nullable FROM information_schema.columns
        WHERE table_schema = 'public' AND table_name <> '_prisma_migrations'`,
    );
    const actual = new Map<string, Map<string, { udt: string; nullable: boolean }>>();
    for (const r of rows) {
      if (!actual.has(r.table_name)) actual.set(r.table_name, new Map());
      actual.get(r.table_name)!.set(r.column_name, { udt: r.udt_name, nullable: r.is_nullable === 'YES' });
    }
    expect([...actual.keys()].sort()).toEqual([...tables.keys()].sort());
    for (const [table, fields] of tables) {
      const cols = actual.get(table)!;
      expect({ table, cols: [...cols.keys()].sort() }).toEqual({ table, cols: [...fields.keys()].sort() });
      for (const [name, f] of fields) expect({ table, name, ...cols.get(name) }).toEqual({ table, name, udt: udt(f), nullable: f.optional });
    }
  });

  it('has every declared index (the read paths) and the foreign keys', async () => {
    const { rows } = await pg.query<{ table: string; def: string }>(
      `SELECT tablename AS table, indexdef AS def FROM pg_indexes WHERE schemaname = 'public'`,
    );
    for (const [table, idx] of indexes)
      for (const i of idx) {
        const cols = i.columns.map((c) => `"?${c}"?`).join(', ');
        const re = new RegExp(`${i.unique ? 'UNIQUE ' : ''}INDEX .* ON public\\.${table} USING btree \\(${cols}\\)$`);
        expect({ table, i, found: rows.some((r) => r.table === table && re.test(r.def)) }).toEqual({ table, i, found: true });
      }
    const fks = await pg.query<{ name: string }>(`SELECT conname AS name FROM pg_constraint WHERE contype = 'f' ORDER BY 1`);
    expect(fks.rows.map((r) => r.name)).toEqual(['revisions_activity_fkey', 'revisions_parent_fkey']);
  });
});
