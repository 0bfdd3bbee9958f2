import { escapeIdentifier as q } from 'pg';
import type { CollectionDef } from '../domain/collection';
import { primaryKeyArrayType, tableName } from './content-schema';
import type { Queryable } from './items-pool';

export type Row = Record<string, unknown>;

/** Writes to a collection's table. Values are already coerced (coerceValue); every value is a parameter. */
export const itemsRepository = {
  async insert(db: Queryable, def: CollectionDef, values: Row): Promise<Row> {
    const cols = Object.keys(values);
    const text = cols.length
      ? `INSERT INTO ${tableName(def.collection)} (${cols.map(q).join(', ')}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING *`
      : `INSERT INTO ${tableName(def.collection)} DEFAULT VALUES RETURNING *`;
    const r = await db.query<Row>(text, cols.map((c) => values[c]));
    return r.rows[0]!;
  },

  /** Updates the rows with these keys; returns the rows found (after the change), in no particular order. */
  async update(db: Queryable, def: CollectionDef, keys: unknown[], values: Row): Promise<Row[]> {
    const cols = Object.keys(values);
    const sets = cols.map((c, i) => `${q(c)} = $${i + 2}`).join(', ');
    const r = await db.query<Row>(
      `UPDATE ${tableName(def.collection)} SET ${sets} WHERE ${q(def.primaryKey)} = ANY($1::${primaryKeyArrayType(def)}) RETURNING *`,
      [keys, ...cols.map((c) => values[c])],
    );
    return r.rows;
  },

  async select(db: Queryable, def: CollectionDef, keys: unknown[], forUpdate = false): Promise<Row[]> {
    const r = await db.query<Row>(
      `SELECT * FROM ${tableName(def.collection)} WHERE ${q(def.primaryKey)} = ANY($1::${primaryKeyArrayType(def)})${forUpdate ? ' FOR UPDATE' : ''}`,
      [keys],
    );
    return r.rows;
  },

  /** Deletes the rows with these keys; returns the keys that existed. */
  async delete(db: Queryable, def: CollectionDef, keys: unknown[]): Promise<unknown[]> {
    const r = await db.query<Row>(
      `DELETE FROM ${tableName(def.collection)} WHERE ${q(def.primaryKey)} = ANY($1::${primaryKeyArrayType(def)}) RETURNING ${q(def.primaryKey)} AS k`,
      [keys],
    );
    return r.rows.map((row) => row.k);
  },
};
