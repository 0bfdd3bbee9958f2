import { readFileSync } from 'node:fs';
import { Client } from 'pg';

export interface PrismaColumn {
  /** Prisma scalar type (String, Int, BigInt, Boolean, DateTime, Json, …). */
  type: string;
  optional: boolean;
  list: boolean;
  /** The @db.<Native> type, if any. */
  native?: string;
}
export interface PrismaTable {
  columns: Map<string, PrismaColumn>;
  /**
   * @id, @unique, @@id, @@unique and @@index, by column names; `method` from `type:` (default btree), `ops` the
   * operator class per column from `field(ops: raw("…"))` (e.g. a trigram GIN index).
   */
  indexes: { columns: string[]; unique: boolean; method?: string; ops?: (string | undefined)[] }[];
}

const SCALARS = new Set(['String', 'Int', 'BigInt', 'Boolean', 'DateTime', 'Json', 'Float', 'Decimal', 'Bytes']);

/** The models of a schema.prisma as tables (honouring @map/@@map); relation fields are left out. */
export function parsePrismaSchema(text: string): Map<string, PrismaTable> {
  const tables = new Map<string, PrismaTable>();
  for (const m of text.matchAll(/^model\s+(\w+)\s*\{([\s\S]*?)^\}/gm)) {
    const body = m[2];
    const table = /@@map\("([^"]+)"\)/.exec(body)?.[1] ?? m[1];
    const columns = new Map<string, PrismaColumn>();
    const fieldToColumn = new Map<string, string>();
    const indexes: PrismaTable['indexes'] = [];
    for (const raw of body.split('\n')) {
      const line = raw.trim();
      if (!line || line.startsWith('//')) continue;
      const block = /^@@(index|unique|id)\(\[([^\]]+)\]/.exec(line);
      if (block) {
        const parts = block[2].split(',').map((s) => s.trim());
        const cols = parts.map((s) => s.replace(/\(.*\)$/, ''));
        const ops = parts.map((s) => /ops:\s*raw\("([^"]+)"\)/.exec(s)?.[1]);
        const method = /\btype:\s*(\w+)/.exec(line.slice(block[0].length))?.[1]?.toLowerCase();
        indexes.push({ columns: cols, unique: block[1] !== 'index', ...(method ? { method } : {}), ...(ops.some(Boolean) ? { ops } : {}) });
        continue;
      }
      const f = /^(\w+)\s+(\w+)(\[\])?(\?)?\s*(.*)$/.exec(line);
      if (!f || !SCALARS.has(f[2]) || /@relation/.test(f[5])) continue;
      const column = /@map\("([^"]+)"\)/.exec(f[5])?.[1] ?? f[1];
      fieldToColumn.set(f[1], column);
      columns.set(column, { type: f[2], list: !!f[3], optional: !!f[4], native: /@db\.(\w+)/.exec(f[5])?.[1] });
      if (/@id\b|@unique\b/.test(f[5])) indexes.push({ columns: [column], unique: true });
    }
    for (const i of indexes) i.columns = i.columns.map((c) => fieldToColumn.get(c) ?? c);
    tables.set(table, { columns, indexes });
  }
  return tables;
}

/** The PostgreSQL udt_name Prisma uses for a column. */
export function expectedUdt(c: PrismaColumn): string {
  const base =
    c.native === 'Uuid'
      ? 'uuid'
      : c.type === 'DateTime'
        ? c.native === 'Timestamptz'
          ? 'timestamptz'
          : 'timestamp'
        : c.native === 'VarChar'
          ? 'varchar'
          : (
              { String: 'text', Int: 'int4', BigInt: 'int8', Boolean: 'bool', Json: 'jsonb', Float: 'float8', Decimal: 'numeric', Bytes: 'bytea' } as Record<
                string,
                string
              >
            )[c.type];
  return c.list ? `_${base}` : base;
}

/**
 * Compare a migrated database (schema `public`) with a schema.prisma: the same tables (a partitioned table's
 * partitions are not tables of the schema), the same columns with
 * Prisma's types and nullability, and every index the schema declares. Returns the differences, one line each
 * (an empty array when they match).
 */
export async function diffDatabaseAgainstPrismaSchema(url: string, schemaPath: string): Promise<string[]> {
  const expected = parsePrismaSchema(readFileSync(schemaPath, 'utf8'));
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ table_name: string; column_name: string; udt_name: string; is_nullable: string }>(
      `SELECT table_name, column_name, udt_name, is_nullable FROM information_schema.columns
        WHERE table_schema = 'public' AND table_name <> '_prisma_migrations'
          AND NOT EXISTS (SELECT 1 FROM pg_class c WHERE c.oid = format('public.%I', table_name)::regclass AND c.relispartition)`,
    );
    const idx = await client.query<{ table: string; def: string }>(`SELECT tablename AS table, indexdef AS def FROM pg_indexes WHERE schemaname = 'public'`);
    const actual = new Map<string, Map<string, { udt: string; nullable: boolean }>>();
    for (const r of rows) {
      if (!actual.has(r.table_name)) actual.set(r.table_name, new Map());
      actual.get(r.table_name)!.set(r.column_name, { udt: r.udt_name, nullable: r.is_nullable === 'YES' });
    }
    const diff: string[] = [];
    for (const t of actual.keys()) if (!expected.has(t)) diff.push(`table ${t}: in the database, not in schema.prisma`);
    for (const [t, table] of expected) {
      const cols = actual.get(t);
      if (!cols) {
        diff.push(`table ${t}: in schema.prisma, not in the database`);
        continue;
      }
      for (const c of cols.keys()) if (!table.columns.has(c)) diff.push(`${t}.${c}: in the database, not in schema.prisma`);
      for (const [name, col] of table.columns) {
        const a = cols.get(name);
        if (!a) diff.push(`${t}.${name}: in schema.prisma, not in the database`);
        else {
          if (a.udt !== expectedUdt(col)) diff.push(`${t}.${name}: type ${a.udt}, schema.prisma says ${expectedUdt(col)}`);
          // Prisma leaves scalar lists nullable in the database.
          if (!col.list && a.nullable !== col.optional)
            diff.push(`${t}.${name}: ${a.nullable ? 'nullable' : 'NOT NULL'}, schema.prisma says ${col.optional ? 'optional' : 'required'}`);
        }
      }
      for (const i of table.indexes) {
        const cols = i.columns.map((c, n) => `"?${c}"?${i.ops?.[n] ? ` ${i.ops[n]}` : ''}`).join(', ');
        const method = i.method ?? 'btree';
        // a partitioned table's index is "ON ONLY" the table (its partitions' indexes are attached to it)
        const re = new RegExp(`${i.unique ? 'UNIQUE ' : ''}INDEX .* ON (?:ONLY )?public\\.${t} USING ${method} \\(${cols}\\)`);
        if (!idx.rows.some((r) => r.table === t && re.test(r.def)))
          diff.push(`${t}: no ${i.unique ? 'unique ' : ''}${method} index on (${i.columns.join(', ')}) declared in schema.prisma`);
      }
    }
    return diff;
  } finally {
    await client.end();
  }
}
