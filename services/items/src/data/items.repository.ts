import { escapeIdentifier as q } from 'pg';
import type { CollectionDef } from '../domain/collection';
import { primaryKeyArrayType, sqlType, tableName } from './content-schema';
import { named, type Queryable } from './items-pool';

export type Row = Record<string, unknown>;

/** A row a write touched (after the change; for a delete, only its key) and its item's new version. */
export interface Written {
  row: Row;
  version: number;
}

/** The column that carries the version beside the row's own (a field name is `[a-z][a-z0-9_]*`: no clash). */
const VERSION = '$version';

/**
 * `write` (an UPDATE, INSERT or DELETE … RETURNING, its collection name as $1) and, in the same statement, its
 * items' versions bumped (`item_versions`, created at 1): the row is locked by the write before its version
 * row is touched, so one item's versions follow the order in which its writes commit (issue 23.2). Version rows
 * are touched in key order.
 */
function versioned(def: CollectionDef, write: string): string {
  const pk = q(def.primaryKey);
  return `WITH w AS (${write}),
v AS (INSERT INTO item_versions AS iv (collection, item, version)
      SELECT $1, w.${pk}::text, 1 FROM w ORDER BY 2
      ON CONFLICT (collection, item) DO UPDATE SET version = iv.version + 1
      RETURNING item, version)
SELECT w.*, v.version::text AS "${VERSION}" FROM w JOIN v ON v.item = w.${pk}::text`;
}

/** What `*` stands for in a collection's statements: its columns and their types (see `named`). */
const shapes = new WeakMap<CollectionDef, string>();
function shapeOf(def: CollectionDef): string {
  let s = shapes.get(def);
  if (s === undefined) shapes.set(def, (s = def.fields.map((f) => `${f.field} ${sqlType(f)}`).join(',')));
  return s;
}

function written(rows: Row[]): Written[] {
  return rows.map((row) => {
    const version = Number(row[VERSION]);
    delete row[VERSION];
    return { row, version };
  });
}

/** Writes to a collection's table, each with its items' versions. Values are already coerced (coerceValue); every value is a parameter. */
export const itemsRepository = {
  async insert(db: Queryable, def: CollectionDef, values: Row): Promise<Written> {
    const cols = Object.keys(values);
    const insert = cols.length
      ? `INSERT INTO ${tableName(def.collection)} (${cols.map(q).join(', ')}) VALUES (${cols.map((_, i) => `$${i + 2}`).join(', ')}) RETURNING *`
      : `INSERT INTO ${tableName(def.collection)} DEFAULT VALUES RETURNING *`;
    const r = await db.query<Row>(named(versioned(def, insert), [def.collection, ...cols.map((c) => values[c])], shapeOf(def)));
    return written(r.rows)[0]!;
  },

  /** Sets `values` on the rows with these keys; returns the rows found (after the change), in no particular order. */
  async update(db: Queryable, def: CollectionDef, keys: unknown[], values: Row): Promise<Written[]> {
    const cols = Object.keys(values);
    const sets = cols.map((c, i) => `${q(c)} = $${i + 3}`).join(', ');
    const update = `UPDATE ${tableName(def.collection)} SET ${sets} WHERE ${q(def.primaryKey)} = ANY($2::${primaryKeyArrayType(def)}) RETURNING *`;
    const r = await db.query<Row>(named(versioned(def, update), [def.collection, keys, ...cols.map((c) => values[c])], shapeOf(def)));
    return written(r.rows);
  },

  /** The rows with these keys, locked (a change that sets nothing still answers with the item, and no event). */
  async selectForUpdate(db: Queryable, def: CollectionDef, keys: unknown[]): Promise<Row[]> {
    const r = await db.query<Row>(named(`SELECT * FROM ${tableName(def.collection)} WHERE ${q(def.primaryKey)} = ANY($1::${primaryKeyArrayType(def)}) FOR UPDATE`, [keys], shapeOf(def)));
    return r.rows;
  },

  /** Deletes the rows with these keys; returns the keys that existed (as `row[primaryKey]`) and their versions. */
  async delete(db: Queryable, def: CollectionDef, keys: unknown[]): Promise<Written[]> {
    const pk = q(def.primaryKey);
    const del = `DELETE FROM ${tableName(def.collection)} WHERE ${pk} = ANY($2::${primaryKeyArrayType(def)}) RETURNING ${pk}`;
    const r = await db.query<Row>(named(versioned(def, del), [def.collection, keys], shapeOf(def)));
    return written(r.rows);
  },
};
