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
