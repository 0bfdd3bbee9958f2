import type { Pool, PoolClient } from 'pg';

export type CountedEntity = 'revisions' | 'activity';

/** Add rows to the per-collection counters (inside the writer's transaction; sorted to avoid lock cycles). */
export async function addCounts(client: PoolClient, entity: CountedEntity, byCollection: Map<string, number>): Promise<void> {
  const entries = [...byCollection].filter(([, n]) => n !== 0).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  if (entries.length === 0) return;
  await client.query(
    `INSERT INTO record_counts (entity, collection, count)
     SELECT $1, c, n FROM unnest($2::text[], $3::int8[]) AS u(c, n)
     ON CONFLICT (entity, collection) DO UPDATE SET count = record_counts.count + EXCLUDED.count`,
    [entity, entries.map(([c]) => c), entries.map(([, n]) => n)],
  );
}

/** Ids per block of `revision_blocks` (the migration's backfill uses the same number). */
export const REVISION_BLOCK_SIZE = 4096;

/**
 * Count new revisions into their (collection, id block) rows — or, with sign -1, pruned ones out of them (inside
 * the writer's transaction, after `addCounts`; sorted, so concurrent writers lock rows in one order).
 */
export async function addBlockCounts(client: PoolClient, revisions: { collection: string; id: number }[], sign: 1 | -1 = 1): Promise<void> {
  const byKey = new Map<string, { collection: string; block: number; n: number }>();
  for (const r of revisions) {
    const block = Math.floor(r.id / REVISION_BLOCK_SIZE);
    const key = `${r.collection}\0${block}`;
    const e = byKey.get(key);
    if (e) e.n += sign;
    else byKey.set(key, { collection: r.collection, block, n: sign });
  }
  await addBlockDeltas(client, [...byKey.values()]);
}

/** Add `n` to each (collection, block) row (sorted, so concurrent writers lock rows in one order). */
export async function addBlockDeltas(client: PoolClient, deltas: { collection: string; block: number; n: number }[]): Promise<void> {
  if (deltas.length === 0) return;
  const rows = [...deltas].sort((a, b) => (a.collection < b.collection ? -1 : a.collection > b.collection ? 1 : a.block - b.block));
  await client.query(
    `INSERT INTO revision_blocks (collection, block, count)
     SELECT c, b, n FROM unnest($1::text[], $2::int8[], $3::int8[]) WITH ORDINALITY AS u(c, b, n, o) ORDER BY o
     ON CONFLICT (collection, block) DO UPDATE SET count = revision_blocks.count + EXCLUDED.count`,
    [rows.map((r) => r.collection), rows.map((r) => r.block), rows.map((r) => r.n)],
  );
}

/** Rows of `entity` in the given collections ('*' = all), from the counters (no table scan). */
export async function countFromCounters(pool: Pool, entity: CountedEntity, collections: '*' | string[]): Promise<number> {
  const { rows } =
    collections === '*'
      ? await pool.query<{ n: number }>('SELECT COALESCE(sum(count), 0)::int8 AS n FROM record_counts WHERE entity = $1', [entity])
      : await pool.query<{ n: number }>(
          'SELECT COALESCE(sum(count), 0)::int8 AS n FROM record_counts WHERE entity = $1 AND collection = ANY($2::text[])',
          [entity, collections],
        );
  return Number(rows[0]?.n ?? 0);
}
