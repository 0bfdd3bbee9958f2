import type { Pool } from 'pg';

/** What tells whether a collection's revisions changed: its row count (record_counts) and its newest id. */
export interface CollectionFingerprint {
  count: string | null;
  max_id: string | null;
}

/** What the keyed page needs of a collection's whole history, kept per fingerprint (see KeyedPages). */
export interface CollectionShape {
  /** The newest oldest-kept time among items whose history was pruned (a time before it is 410); null: none. */
  horizon: Date | null;
  /** Every item key is an integer (the key order is numeric, as the list's `id` order is then). */
  numeric: boolean;
}

/** An integer key (a number a JavaScript number holds exactly). */
const INTEGER = '^-?[0-9]{1,15}$';
export const INTEGER_KEY = new RegExp(INTEGER);

/** The oldest kept revision `f` does not start the item's history (historyComplete, negated, in SQL). */
const INCOMPLETE = `NOT CASE WHEN f.item_version IS NULL THEN coalesce(f.action = 'create', false) ELSE f.item_version = 1 END`;

/** The item's oldest kept revision, `f` (as COLLECTION_AT's). */
const FIRST_KEPT = (item: string) => `SELECT r.id, r.timestamp, r.item_version, a.action FROM revisions r LEFT JOIN activity a ON a.id = r.activity
    WHERE r.collection = $1 AND r.item = ${item} AND r.version IS NULL ORDER BY r.timestamp, r.id LIMIT 1`;

const FINGERPRINT = `SELECT (SELECT count::text FROM record_counts WHERE entity = 'revisions' AND collection = $1) AS count,
  (SELECT max(id)::text FROM revisions WHERE collection = $1) AS max_id`;

/** Each item's oldest kept revision (as COLLECTION_AT's `f`), for every item: historyComplete in SQL. */
const SHAPE = `SELECT max(f.timestamp) FILTER (WHERE ${INCOMPLETE}) AS horizon, coalesce(bool_and(h.item ~ '${INTEGER}'), true) AS numeric
  FROM revision_heads h LEFT JOIN LATERAL (${FIRST_KEPT('h.item')}) f ON true
  WHERE h.collection = $1`;

/**
 * The items with revisions of ids in ($2, $3] (`n`: how many such revisions in all), each with its oldest kept
 * revision: whether that is one of them (`first_new`), whether it is incomplete, whether the item had older rows.
 */
const SHAPE_DELTA = `SELECT i.item, i.n, f.id > $2 AS first_new, f.timestamp, ${INCOMPLETE} AS incomplete,
    EXISTS (SELECT 1 FROM revisions o WHERE o.collection = $1 AND o.item = i.item AND o.id <= $2 AND o.version IS NULL) AS had_old
  FROM (SELECT item, sum(count(*)) OVER () AS n FROM revisions WHERE collection = $1 AND id > $2 AND id <= $3 GROUP BY item) i
  LEFT JOIN LATERAL (${FIRST_KEPT('i.item')}) f ON true`;

export interface ShapeDeltaRow {
  item: string;
  n: string;
  first_new: boolean | null;
  timestamp: Date | null;
  incomplete: boolean | null;
  had_old: boolean;
}

/** The key order: numeric for integer keys, else byte order (the expressions of the migration's indexes on revision_heads). */
const keyOf = (numeric: boolean) => (numeric ? `CASE WHEN h.item ~ '${INTEGER}' THEN h.item::numeric END` : 'h.item COLLATE "C"');

/**
 * One page of the collection's states at `$2` in key order: the heads are read in key order from their index, each
 * item's state rebuilt in that order until the page is full (LIMIT), so a page costs its own items' descents, not
 * the collection's. Items without a state then (not yet created, or deleted) are skipped. `$5`: start after this key
 * (the next chunk of a filtered read: the heads before it are passed over in the index, not rebuilt). The collection's
 * fingerprint comes in the same snapshot (one row of nulls when the page is empty).
 */
const pageText = (numeric: boolean, desc: boolean) => `WITH fp AS (${FINGERPRINT})
SELECT fp.count, fp.max_id, p.item, p.id, p.data, p.timestamp FROM fp LEFT JOIN LATERAL (
  SELECT h.item, ${keyOf(numeric)} AS k, s.id, s.data, s.timestamp
  FROM revision_heads h
  CROSS JOIN LATERAL (SELECT r.id, r.data, r.timestamp FROM revisions r
    WHERE r.collection = h.collection AND r.item = h.item AND r.timestamp <= $2 AND r.version IS NULL
    ORDER BY r.timestamp DESC, r.id DESC LIMIT 1) s
  WHERE h.collection = $1 AND s.data IS NOT NULL AND s.data <> 'null'::jsonb
    AND ($5::text IS NULL OR ${keyOf(numeric)} ${desc ? '<' : '>'} ${numeric ? '$5::numeric' : '$5 COLLATE "C"'})
  ORDER BY ${keyOf(numeric)}${desc ? ' DESC' : ''} LIMIT $3 OFFSET $4) p ON true
ORDER BY p.k${desc ? ' DESC' : ''}`;

const PAGES = new Map([false, true].flatMap((numeric) => [false, true].map((desc) => [`${numeric}/${desc}`, pageText(numeric, desc)])));

/** The fingerprint as one string (equal strings: no revision of the collection added or removed in between). */
export const fingerprintKey = (fp: CollectionFingerprint) => `${fp.count}/${fp.max_id}`;

export interface KeyedStateRow {
  item: string;
  id: number;
  data: Record<string, unknown>;
  timestamp: Date;
}

/** Reads for a list as it was paged in SQL (as-of.repository.ts has the general read). */
export const asOfPageRepository = {
  async fingerprint(pool: Pool, collection: string): Promise<CollectionFingerprint> {
    return (await pool.query<CollectionFingerprint>({ name: 'as_of_fingerprint', text: FINGERPRINT, values: [collection] })).rows[0]!;
  },

  async shape(pool: Pool, collection: string): Promise<CollectionShape> {
    const row = (await pool.query<CollectionShape>({ name: 'as_of_shape', text: SHAPE, values: [collection] })).rows[0]!;
    return { horizon: row.horizon, numeric: row.numeric };
  },

  async shapeDelta(pool: Pool, collection: string, fromId: string, toId: string): Promise<ShapeDeltaRow[]> {
    return (await pool.query<ShapeDeltaRow>({ name: 'as_of_shape_delta', text: SHAPE_DELTA, values: [collection, fromId, toId] })).rows;
  },

  async page(
    pool: Pool,
    collection: string,
    at: Date,
    o: { numeric: boolean; desc: boolean; limit: number; offset: number; after?: string },
  ): Promise<{ fingerprint: string; rows: KeyedStateRow[] }> {
    const key = `${o.numeric}/${o.desc}`;
    const name = `as_of_page_${o.numeric ? 'num' : 'text'}_${o.desc ? 'desc' : 'asc'}`;
    const { rows } = await pool.query<KeyedStateRow & CollectionFingerprint>({ name, text: PAGES.get(key)!, values: [collection, at, o.limit, o.offset, o.after ?? null] });
    return { fingerprint: fingerprintKey(rows[0]!), rows: rows.filter((r) => r.item !== null) };
  },
};
