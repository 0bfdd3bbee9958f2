import type { Pool } from 'pg';

/** A recorded revision with its activity, as the live feed hands it to every stream. */
export interface FeedRow {
  id: number;
  activity: number | null;
  collection: string;
  item: string;
  /** `data`/`delta` as the database's JSON text (parsed once by the feed, not per stream). */
  data: string | null;
  delta: string | null;
  parent: number | null;
  version: string | null;
  action: string | null;
  user: string | null;
  timestamp: Date | null;
  ip: string | null;
  user_agent: string | null;
  activity_collection: string | null;
  activity_item: string | null;
  origin: string | null;
}

/** What a feed read saw: the rows after the cursor, and the snapshot's bounds (xid8 as bigint). */
export interface FeedRead {
  rows: FeedRow[];
  /** Every transaction below this id had finished when the rows were read. */
  xmin: bigint;
  /** Every transaction from this id on had not started (or had no id yet) when the rows were read. */
  xmax: bigint;
}

/**
 * The revisions after `afterId` in id order with their activity, and the bounds of the snapshot they were read in
 * (one statement, so one snapshot: `pg_current_snapshot()` is the statement's).
 */
const READ_AFTER = {
  name: 'vellum_feed_after',
  text: `SELECT pg_snapshot_xmin(s)::text AS xmin, pg_snapshot_xmax(s)::text AS xmax, x.*
  FROM pg_current_snapshot() AS s
  LEFT JOIN LATERAL (
    SELECT r.id::text AS id, r.activity::text AS activity, r.collection, r.item, r.data::text AS data, r.delta::text AS delta,
           r.parent::text AS parent, r.version, a.action, a."user", a.timestamp, a.ip, a.user_agent,
           a.collection AS activity_collection, a.item AS activity_item, a.origin
      FROM revisions r LEFT JOIN activity a ON a.id = r.activity
     WHERE r.id > $1::int8
     ORDER BY r.id
     LIMIT $2
  ) AS x ON true
 ORDER BY x.id::int8`,
};

const num = (v: string | null): number | null => (v === null ? null : Number(v));

export async function readAfter(pool: Pick<Pool, 'query'>, afterId: number, limit: number): Promise<FeedRead> {
  const { rows } = await pool.query<Record<string, unknown>>({ ...READ_AFTER, values: [afterId, limit] });
  const first = rows[0]!;
  const out: FeedRow[] = [];
  for (const r of rows) {
    if (r.id === null) continue;
    out.push({
      id: Number(r.id),
      activity: num(r.activity as string | null),
      collection: r.collection as string,
      item: r.item as string,
      data: r.data as string | null,
      delta: r.delta as string | null,
      parent: num(r.parent as string | null),
      version: r.version as string | null,
      action: r.action as string | null,
      user: r.user as string | null,
      timestamp: r.timestamp as Date | null,
      ip: r.ip as string | null,
      user_agent: r.user_agent as string | null,
      activity_collection: r.activity_collection as string | null,
      activity_item: r.activity_item as string | null,
      origin: r.origin as string | null,
    });
  }
  return { rows: out, xmin: BigInt(first.xmin as string), xmax: BigInt(first.xmax as string) };
}

/** The newest revision id (0 when there is none) and the snapshot it was read in. */
export async function readHead(pool: Pick<Pool, 'query'>): Promise<{ id: number; xmax: bigint }> {
  const { rows } = await pool.query<{ id: string | null; xmax: string }>(
    `SELECT (SELECT max(id) FROM revisions)::text AS id, pg_snapshot_xmax(pg_current_snapshot())::text AS xmax`,
  );
  return { id: Number(rows[0]!.id ?? 0), xmax: BigInt(rows[0]!.xmax) };
}

/**
 * The first revision id recorded at or after `cutoff` (retention may have pruned revisions before it), or null when
 * none is that recent.
 */
export async function firstIdSince(pool: Pick<Pool, 'query'>, cutoff: Date): Promise<number | null> {
  const { rows } = await pool.query<{ id: string | null }>(`SELECT min(id)::text AS id FROM revisions WHERE timestamp >= $1`, [cutoff]);
  return rows[0]!.id === null ? null : Number(rows[0]!.id);
}
