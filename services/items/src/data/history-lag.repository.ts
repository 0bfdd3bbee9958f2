import type { Queryable } from './items-pool';

const OLDEST_UNPUBLISHED = {
  name: 'items_history_lag',
  // the partial index on unpublished rows by seq: the oldest is its first entry
  text: `SELECT (extract(epoch FROM clock_timestamp() - created_at) * 1000)::float8 AS ms FROM outbox WHERE published_at IS NULL ORDER BY seq LIMIT 1`,
};

/**
 * How long the oldest change not yet handed on has waited, ms (0: none). In the embedded topology an outbox row is
 * marked published once the revisions service recorded it, so this is how far the history is behind the data.
 */
export async function historyLagMs(db: Queryable): Promise<number> {
  const r = await db.query<{ ms: number }>(OLDEST_UNPUBLISHED);
  return Math.max(0, r.rows[0]?.ms ?? 0);
}
