import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { createTestDatabase, type TestDatabase } from '@vellum/testing';
import { Prisma } from '../src/data/prisma';
import { MIGRATIONS_DIR } from '../src/start';

// The Prisma schema, parsed: model → { column: { type, optional, list, native } }.
interface Field {
  type: string;
  optional: boolean;
  list: boolean;
  native?: string;
}
function parseSchema(text: string): Map<string, Map<string, Field>> {
  const tables = new Map<string, Map<string, Field>>();
  for (const m of text.matchAll(/model\s+(\w+)\s*\{([\s\S]*?)\n\}/g)) {
    const body = m[2];
    const table = /@@map\("([^"]+)"\)/.exec(body)?.[1] ?? m[1];
    const fields = new Map<string, Field>();
    for (const line of body.split('\n')) {
      const f = /^\s+(\w+)\s+(\w+)(\[\])?(\?)?(.*)$/.exec(line);
      if (!f || line.trim().startsWith('//') || line.trim().startsWith('@@')) continue;
      if (/@relation\(|^[A-Z]/.test(f[5]) || /^[A-Z]/.test(f[2]) && !['String', 'Int', 'BigInt', 'Boolean', 'DateTime', 'Json'].includes(f[2])) continue;
      const column = /@map\("([^"]+)"\)/.exec(f[5])?.[1] ?? f[1];
      fields.set(column, { type: f[2], list: !!f[3], optional: !!f[4], native: /@db\.(\w+)/.exec(f[5])?.[1] });
    }
    tables.set(table, fields);
  }
  return tables;
}

// PostgreSQL udt_name that Prisma uses for each scalar type (with an optional @db native type).
function expectedUdt(f: Field): string {
  if (f.native === 'Uuid') return f.list ? '_uuid' : 'uuid';
  if (f.native === 'Timestamptz' || f.type === 'DateTime') return f.native === 'Timestamptz' ? 'timestamptz' : 'timestamp';
  const base = { String: 'text', Int: 'int4', BigInt: 'int8', Boolean: 'bool', Json: 'jsonb' }[f.type]!;
  return f.list ? `_${base}` : base;
}

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
  const schema = parseSchema(readFileSync(path.join(__dirname, '..', 'prisma', 'schema.prisma'), 'utf8'));

  it('has exactly the models of the generated client', () => {
    expect([...schema.keys()].length).toBe(Object.keys(Prisma.ModelName).length);
  });

  it('has every column with the right type and nullability, and no other column', async () => {
    const { rows } = await pg.query<{ table_name: string; column_name: string; udt_name: string; is_nullable: string }>(
      `SELECT table_name, column_name, udt_name, is_nullable FROM information_schema.columns
        WHERE table_schema = 'public' AND table_name <> '_prisma_migrations'`,
    );
    const actual = new Map<string, Map<string, { udt: string; nullable: boolean }>>();
    for (const r of rows) {
      if (!actual.has(r.table_name)) actual.set(r.table_name, new Map());
      actual.get(r.table_name)!.set(r.column_name, { udt: r.udt_name, nullable: r.is_nullable === 'YES' });
    }
    expect([...actual.keys()].sort()).toEqual([...schema.keys()].sort());
    for (const [table, fields] of schema) {
      const cols = actual.get(table)!;
      expect({ table, columns: [...cols.keys()].sort() }).toEqual({ table, columns: [...fields.keys()].sort() });
      for (const [name, f] of fields) {
        const c = cols.get(name)!;
        expect({ table, name, udt: c.udt }).toEqual({ table, name, udt: expectedUdt(f) });
        // Prisma leaves scalar lists nullable in the database
        if (!f.list) expect({ table, name, nullable: c.nullable }).toEqual({ table, name, nullable: f.optional });
      }
    }
  });

  it('enforces what Prisma cannot express: case-insensitive unique e-mail and the status/action checks', async () => {
    await pg.query(`INSERT INTO users (id, email) VALUES (gen_random_uuid(), 'Ann@Example.com')`);
    await expect(pg.query(`INSERT INTO users (id, email) VALUES (gen_random_uuid(), 'ann@example.COM')`)).rejects.toThrow(/unique/);
    await expect(pg.query(`INSERT INTO users (id, email, status) VALUES (gen_random_uuid(), 'b@x.io', 'gone')`)).rejects.toThrow(/check/);
    await expect(pg.query(`INSERT INTO permissions (collection, action) VALUES ('a', 'upsert')`)).rejects.toThrow(/check/);
  });
});
