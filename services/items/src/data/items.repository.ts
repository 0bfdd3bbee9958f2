import { escapeIdentifier as q, type QueryConfig } from 'pg';
import type { CollectionDef } from '../domain/collection';
import { keysMatch, sqlType, tableName } from './content-schema';
import { named, type Queryable } from './items-pool';
import { eventCte, type ItemEvent } from './item-event-cte';

export type Row = Record<string, unknown>;

/**
 * A row a write touched (after the change; for a delete, only its key) and its item's version after it: null when
 * `If-Match` did not match, undefined on an update whose values were the stored ones (`unchanged`: not written).
 */
export interface Written {
  row: Row;
  version: number;
  unchanged?: boolean;
}

/** The column that says a row of an update's answer was not written (its values were the stored ones). */
const UNCHANGED = '$unchanged';

/** The column that carries the version beside the row's own (a field name is `[a-z][a-z0-9_]*`: no clash). */
const VERSION = '$version';

/**
 * `write` (an UPDATE, INSERT or DELETE … RETURNING, its collection name as $1) and, in the same statement, its
 * items' versions bumped (`item_versions`, created at 1): the row is locked by the write before its version
 * row is touched, so one item's versions follow the order in which its writes commit. Version rows
 * are touched in key order. With `ifMatch` ($3, bigint[] or null: `If-Match`), a version row is bumped only when
 * its latest committed version is one of them (ON CONFLICT DO UPDATE reads the latest row, not the snapshot, and
 * under the item's row lock): a row written but not bumped comes back with a null version (412, rolled back).
 */
function versioned(def: CollectionDef, write: string, ifMatch = false, more = '', event = ''): string {
  const pk = q(def.primaryKey);
  return `WITH w AS (${write}),
v AS (INSERT INTO item_versions AS iv (collection, item, version)
      SELECT $1, w.${pk}::text, 1 FROM w ORDER BY 2
      ON CONFLICT (collection, item) DO UPDATE SET version = iv.version + 1${ifMatch ? ' WHERE $3::bigint[] IS NULL OR iv.version = ANY($3::bigint[])' : ''}
      RETURNING item, version)${event ? `,\n${event}` : ''}
SELECT w.*, v.version::text AS "${VERSION}"${more} FROM w ${ifMatch ? 'LEFT ' : ''}JOIN v ON v.item = w.${pk}::text`;
}

/** What `*` stands for in a collection's statements: its columns and their types (see `named`). */
const shapes = new WeakMap<CollectionDef, string>();
function shapeOf(def: CollectionDef): string {
  let s = shapes.get(def);
  if (s === undefined) shapes.set(def, (s = def.fields.map((f) => `${f.field} ${sqlType(f)}`).join(',')));
  return s;
}

/**
 * A condition that holds once it has locked the rows `match` selects, in key order (a subquery run once, before the
 * write locks a row it passed): a write of several rows otherwise locks them in the order its scan meets them
 * (physical order, which each update changes), and two writes over the same rows could each hold one the other
 * waits for — a deadlock PostgreSQL breaks by aborting one after a second. The write's own scan is unchanged.
 * `strength`: the lock the write itself takes (an update that keeps the key: NO KEY UPDATE; a delete: UPDATE).
 */
function lockedInKeyOrder(def: CollectionDef, match: string, strength: 'UPDATE' | 'NO KEY UPDATE'): string {
  const pk = q(def.primaryKey);
  return `(SELECT count(*) FROM (SELECT 1 FROM ${tableName(def.collection)} WHERE ${match} ORDER BY ${pk} FOR ${strength}) AS l) >= 0`;
}

/**
 * A statement matching `keys` (keysMatch): prepared once per connection for one key; for several, planned with its
 * keys each time, since a generic plan of `= ANY($n)` cannot know how many there are (it scanned a new
 * collection's whole table). Planning is a few µs per row of a batch.
 */
function keyed(text: string, values: unknown[], def: CollectionDef, keys: unknown[]): QueryConfig {
  return keys.length === 1 ? named(text, values, shapeOf(def)) : { text, values };
}

function written(rows: Row[]): Written[] {
  return rows.map((row) => {
    const v = row[VERSION];
    const unchanged = row[UNCHANGED] === true;
    delete row[VERSION];
    delete row[UNCHANGED];
    // no version row: an item not written since versions exist (0), or a written one whose If-Match missed (NaN)
    const w: Written = { row, version: v === null || v === undefined ? (unchanged ? 0 : NaN) : Number(v) };
    if (unchanged) w.unchanged = true;
    return w;
  });
}

/** Writes to a collection's table, each with its items' versions. Values are already coerced (coerceValue); every value is a parameter. */
export const itemsRepository = {
  /** `event`: its outbox row written by this statement (run on its own, it is the transaction: see one-statement-write.ts). */
  async insert(db: Queryable, def: CollectionDef, values: Row, event?: ItemEvent): Promise<Written> {
    const cols = Object.keys(values);
    const e = event && eventCte(def, event, cols.length + 2);
    const insert = cols.length
      ? `INSERT INTO ${tableName(def.collection)} (${cols.map(q).join(', ')}) VALUES (${cols.map((_, i) => `$${i + 2}`).join(', ')}) RETURNING *`
      : `INSERT INTO ${tableName(def.collection)} DEFAULT VALUES RETURNING *`;
    const params = [def.collection, ...cols.map((c) => values[c]), ...(e?.values ?? [])];
    const r = await db.query<Row>(named(versioned(def, insert, false, '', e?.text), params, shapeOf(def)));
    return written(r.rows)[0]!;
  },

  /**
   * Sets `values` on the rows with these keys whose values differ (one statement); returns the rows written (after
   * the change), in no particular order: a row that already held the values is not written and not returned
   * (`selectForUpdate` tells it from a missing one). `ifMatch`: the versions the caller expects (null: any).
   * `event`: one key's outbox row written by this statement (with no `ifMatch`: nothing rolls back a miss).
   */
  async update(db: Queryable, def: CollectionDef, keys: unknown[], values: Row, ifMatch: number[] | null = null, event?: ItemEvent): Promise<Written[]> {
    const cols = Object.keys(values);
    const e = event && eventCte(def, event, cols.length + 4);
    const sets = cols.map((c, i) => `${q(c)} = $${i + 4}`).join(', ');
    const differs = `ROW(${cols.map(q).join(', ')}) IS DISTINCT FROM ROW(${cols.map((_, i) => `$${i + 4}`).join(', ')})`;
    const match = keysMatch(def, q(def.primaryKey), 2, keys);
    const where = keys.length === 1 ? match.sql : `${match.sql} AND ${lockedInKeyOrder(def, match.sql, 'NO KEY UPDATE')}`;
    const update = `UPDATE ${tableName(def.collection)} SET ${sets} WHERE ${where} AND ${differs} RETURNING *`;
    const params = [def.collection, match.value, ifMatch, ...cols.map((c) => values[c]), ...(e?.values ?? [])];
    const r = await db.query<Row>(keyed(versioned(def, update, true, '', e?.text), params, def, keys));
    return written(r.rows);
  },

  /** The rows with these keys, locked, with their versions, `unchanged` (a change that sets nothing, or only stored values, answers with the item, and no event). */
  async selectForUpdate(db: Queryable, def: CollectionDef, keys: unknown[]): Promise<Written[]> {
    const pk = q(def.primaryKey);
    const match = keysMatch(def, `s.${pk}`, 1, keys);
    const text = `SELECT s.*, (SELECT version FROM item_versions WHERE collection = $2 AND item = s.${pk}::text)::text AS "${VERSION}", true AS "${UNCHANGED}"
FROM ${tableName(def.collection)} s WHERE ${match.sql} ORDER BY s.${pk} FOR NO KEY UPDATE OF s`;
    const r = await db.query<Row>(keyed(text, [match.value, def.collection], def, keys));
    return written(r.rows);
  },

  /**
   * After rows were inserted with keys of their own into an auto-increment key: its sequence moved past the largest,
   * so the next generated key is not one of them (a unique violation otherwise, once the sequence got there).
   * Creates that name keys in one table wait for each other here, so the sequence never goes back.
   */
  async advanceIdentity(db: Queryable, def: CollectionDef, keys: unknown[]): Promise<void> {
    const pk = def.fields.find((f) => f.field === def.primaryKey);
    const top = Math.max(...keys.map(Number).filter(Number.isSafeInteger));
    if (!pk?.schema.has_auto_increment || !(top > 0)) return;
    await db.query({
      name: 'vellum_advance_identity',
      text: `SELECT setval(s, $3::bigint) FROM (SELECT pg_advisory_xact_lock(hashtext($1)), pg_get_serial_sequence($1, $2)::regclass AS s OFFSET 0) x
              WHERE $3::bigint > COALESCE(pg_sequence_last_value(s), 0)`,
      values: [tableName(def.collection), def.primaryKey, top],
    });
  },

  /** Locks the rows with these keys in key order (before a write that touches them one statement each, in another order). */
  async lock(db: Queryable, def: CollectionDef, keys: unknown[]): Promise<void> {
    const pk = q(def.primaryKey);
    const match = keysMatch(def, pk, 1, keys);
    await db.query(keyed(`SELECT 1 FROM ${tableName(def.collection)} WHERE ${match.sql} ORDER BY ${pk} FOR UPDATE`, [match.value], def, keys));
  },

  /** Whether the row with this key exists, held against a delete until the transaction ends (FOR KEY SHARE: updates pass). */
  async holdKey(db: Queryable, def: CollectionDef, key: unknown): Promise<boolean> {
    const match = keysMatch(def, q(def.primaryKey), 1, [key]);
    const r = await db.query(keyed(`SELECT 1 FROM ${tableName(def.collection)} WHERE ${match.sql} FOR KEY SHARE`, [match.value], def, [key]));
    return r.rowCount === 1;
  },

  /** Deletes the rows with these keys; returns the keys that existed (as `row[primaryKey]`) and their versions (NaN: `ifMatch` missed). */
  async delete(db: Queryable, def: CollectionDef, keys: unknown[], ifMatch: number[] | null = null): Promise<Written[]> {
    const pk = q(def.primaryKey);
    const match = keysMatch(def, pk, 2, keys);
    const del = `DELETE FROM ${tableName(def.collection)} WHERE ${match.sql}${keys.length === 1 ? '' : ` AND ${lockedInKeyOrder(def, match.sql, 'UPDATE')}`} RETURNING ${pk}`;
    const r = await db.query<Row>(keyed(versioned(def, del, true), [def.collection, match.value, ifMatch], def, keys));
    return written(r.rows);
  },
};

/** Nested writes: a parent's current children, and a new version for a row whose own columns a write left as stored. */
export const relatedRows = {
  /** The rows whose `field` holds `key`, locked, in key order with the rows of keys `also` (one-to-many children of one parent). */
  async childrenOf(db: Queryable, def: CollectionDef, field: string, key: unknown, also: unknown[] = []): Promise<Row[]> {
    const pk = q(def.primaryKey);
    if (also.length === 0) {
      const text = `SELECT * FROM ${tableName(def.collection)} WHERE ${q(field)} = $1 ORDER BY ${pk} FOR UPDATE`;
      return (await db.query<Row>(named(text, [key], shapeOf(def)))).rows;
    }
    // `also`: rows the write will take next (linked from elsewhere), locked in the same key order
    const match = keysMatch(def, pk, 2, also);
    const text = `SELECT * FROM ${tableName(def.collection)} WHERE ${q(field)} = $1 OR ${match.sql} ORDER BY ${pk} FOR UPDATE`;
    const rows = (await db.query<Row>({ text, values: [key, match.value] })).rows;
    return rows.filter((row) => row[field] !== null && String(row[field]) === String(key));
  },

  /** Bumps the version of a row the caller holds locked (its children changed, its own columns did not). */
  async touch(db: Queryable, def: CollectionDef, key: unknown): Promise<number> {
    const text = `INSERT INTO item_versions AS iv (collection, item, version) VALUES ($1, $2, 1)
ON CONFLICT (collection, item) DO UPDATE SET version = iv.version + 1 RETURNING version::text AS "${VERSION}"`;
    const r = await db.query<Row>({ text, values: [def.collection, String(key)] });
    return Number(r.rows[0]![VERSION]);
  },
};
