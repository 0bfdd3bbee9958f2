import type { Pool } from 'pg';
import type { CollectionFingerprint } from './as-of-page.repository';
import { StatementNames } from './statement-names';

/** A list's text depends on its shape only (values are parameters): a shape seen again is prepared, planned once. */
const names = new StatementNames();

/** What the statement needs of a list's shape, as SQL over `s.data` (filter-sql.ts, sql-lists.ts). */
export interface ListSql {
  /** Whether the state matches the filter. */
  hit: string;
  /** Whether SQL may not answer as the general path for this state (then the general path answers). */
  odd: string;
  /** Per sort key (the query's, then the key `id`): its value, jsonb. */
  keys: { value: string; desc: boolean }[];
  /** The fields read from the state once per state (`x.<name>`), by the parameter holding the field's name. */
  fields: { name: string; param: string }[];
  /** The statement's values: $1 collection, $2 time, $3 limit (null: all), $4 offset, then the pieces' own. */
  values: unknown[];
}

export interface ListRow {
  count: string | null;
  max_id: string | null;
  total: string;
  matched: string;
  odd: boolean;
  item: string | null;
  id: number;
  data: Record<string, unknown>;
  timestamp: Date;
}

/** A sort key's SQL order: by its number, its boolean, its text in code order (a key of one JSON type: see `odd`). */
const orderOf = (k: { desc: boolean }, i: number, t = '') =>
  [`${t}k${i}n`, `${t}k${i}b`, `${t}k${i}s COLLATE "C"`].map((c) => `${c}${k.desc ? ' DESC' : ''}`).join(', ');

/**
 * A sort key whose order SQL may not give as the general path's compareValues does: two JSON types among the
 * matching states' values, an object or an array, or text with both a character above U+FFFF and one in
 * U+E000–U+FFFF (their UTF-16 and UTF-8 orders differ).
 */
const keyOdd = (i: number) => `coalesce(min(k${i}t) FILTER (WHERE hit AND k${i}t <> 'null') <> max(k${i}t) FILTER (WHERE hit AND k${i}t <> 'null'), false)
  OR coalesce(bool_or(k${i}t IN ('object', 'array')) FILTER (WHERE hit), false)
  OR (coalesce(bool_or(k${i}s ~ '[\\U00010000-\\U0010FFFF]') FILTER (WHERE hit AND octet_length(k${i}s) > char_length(k${i}s)), false)
    AND coalesce(bool_or(k${i}s ~ '[\\uE000-\\uFFFF]') FILTER (WHERE hit AND octet_length(k${i}s) > char_length(k${i}s)), false))`;

/**
 * A list as it was in one statement: every item's state at $2 (one descent per item from revision_heads, as the
 * general path's), the filter, the counts, the sort and the page on those rows; 25 rows leave the database, not
 * the collection. With the collection's fingerprint (its 410 horizon is kept under it) in the same snapshot.
 * PostgreSQL decompresses a stored state at each use, so each state is decompressed once — `d`: an object `|| '{}'`
 * is that object, decompressed, not rebuilt (a deletion's `null` becomes an array, left out) — and read from there;
 * the page's 25 states are read again by id at the end rather than carried through the counts and the sort.
 */
function statement(l: ListSql): string {
  const keys = l.keys
    .map(
      (k, i) => `jsonb_typeof(${k.value}) AS k${i}t,
      CASE WHEN jsonb_typeof(${k.value}) = 'number' THEN (${k.value})::float8 END AS k${i}n,
      CASE WHEN jsonb_typeof(${k.value}) = 'boolean' THEN (${k.value})::boolean END AS k${i}b,
      CASE WHEN jsonb_typeof(${k.value}) = 'string' THEN ${k.value} #>> '{}' END AS k${i}s`,
    )
    .join(',\n      ');
  const fields = l.fields.map((f) => `, st.d -> ${f.param} AS ${f.name}`).join('');
  const order = (t: string) => [...l.keys.map((k, i) => orderOf(k, i, t)), `${t}id`].join(', ');
  const keyColumns = l.keys.map((_, i) => `, k${i}n, k${i}b, k${i}s`).join('');
  // `x` is not flattened (OFFSET 0): each field is read from `d` once per state, not once per expression using it
  return `WITH fp AS (SELECT (SELECT count::text FROM record_counts WHERE entity = 'revisions' AND collection = $1) AS count,
    (SELECT max(id)::text FROM revisions WHERE collection = $1) AS max_id),
  m AS (
    SELECT x.item, x.id, x.timestamp, coalesce(${l.hit}, false) AS hit, coalesce(${l.odd}, false) AS odd${keys ? `,\n      ${keys}` : ''}
    FROM (SELECT h.item, st.id, st.timestamp${fields} FROM revision_heads h
      CROSS JOIN LATERAL (SELECT r.id, r.data || '{}'::jsonb AS d, r.timestamp FROM revisions r
        WHERE r.collection = h.collection AND r.item = h.item AND r.timestamp <= $2 AND r.version IS NULL
        ORDER BY r.timestamp DESC, r.id DESC LIMIT 1) st
      WHERE h.collection = $1 AND jsonb_typeof(st.d) = 'object' OFFSET 0) x),
  agg AS (SELECT count(*) AS total, count(*) FILTER (WHERE hit) AS matched,
    coalesce(bool_or(odd), false)${l.keys.map((_, i) => `\n    OR ${keyOdd(i)}`).join('')} AS odd FROM m)
SELECT fp.count, fp.max_id, agg.total, agg.matched, agg.odd, p.item, p.id, rv.data, p.timestamp
FROM fp CROSS JOIN agg LEFT JOIN LATERAL (SELECT item, id, timestamp${keyColumns}
  FROM m WHERE hit AND NOT agg.odd ORDER BY ${order('')} LIMIT $3::bigint OFFSET $4::bigint) p ON true
  LEFT JOIN revisions rv ON rv.id = p.id
ORDER BY ${order('p.')}`;
}

/** The list as it was in one statement (as-of-page.repository.ts has the key-ordered page, as-of.repository.ts the general read). */
export const asOfListRepository = {
  async list(pool: Pool, l: ListSql): Promise<{ fingerprint: CollectionFingerprint; total: number; matched: number; odd: boolean; rows: ListRow[] }> {
    const { rows } = await pool.query<ListRow>(names.named({ text: statement(l), values: l.values }));
    const first = rows[0]!;
    return {
      fingerprint: first,
      total: Number(first.total),
      matched: Number(first.matched),
      odd: first.odd,
      rows: rows.filter((r) => r.item !== null),
    };
  },
};
