import type { Queryable } from './items-pool';

/**
 * Adds `count` to each item's version (created at `count` the first time) and returns the new versions. Runs in
 * the write's transaction after the item's row was locked (inserted, updated or deleted), so the versions of one
 * item follow the order in which its writes commit. Rows are touched in key order.
 */
export async function bumpItemVersions(db: Queryable, collection: string, counts: Map<string, number>): Promise<Map<string, number>> {
  if (counts.size === 0) return new Map();
  const items = [...counts.keys()].sort();
  const r = await db.query<{ item: string; version: string }>(
    `INSERT INTO item_versions AS v (collection, item, version)
     SELECT $1, t.item, t.n FROM unnest($2::text[], $3::int8[]) AS t(item, n) ORDER BY t.item
     ON CONFLICT (collection, item) DO UPDATE SET version = v.version + EXCLUDED.version
     RETURNING item, version::text AS version`,
    [collection, items, items.map((i) => counts.get(i))],
  );
  return new Map(r.rows.map((row) => [row.item, Number(row.version)]));
}
