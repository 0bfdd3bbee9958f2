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
  comment: string | null;
}

/** What a feed read saw: the rows after the cursor, and which transactions of this database were running. */
export interface FeedRead {
  rows: FeedRow[];
  /** Transactions in progress in the rows' snapshot (32-bit ids, as text). */
  inProgress: Set<string>;
  /** Transactions of this database running when the rows had been read (they include every one of the snapshot's). */
  running: string[];
}

/**
 * The transactions of this database that hold a transaction id (the only ones that can insert revisions), as seen
 * after the statement's snapshot was taken: every writer in progress in that snapshot is among them or has ended.
 * Other databases of the server are not waited for. (The service's connections share one database user, whose own
 * sessions' transaction ids pg_stat_activity always shows.)
 */
const RUNNING = `ARRAY(SELECT backend_xid::text FROM pg_stat_activity
   WHERE datname = current_database() AND backend_xid IS NOT NULL AND pid <> pg_backend_pid())`;
const IN_PROGRESS = `ARRAY(SELECT xid(x)::text FROM pg_snapshot_xip(s) AS x)`;

/**
 * The revisions after `afterId` in id order with their activity, the transactions in progress in the snapshot they
 * were read in (one statement, so one snapshot: `pg_current_snapshot()` is the statement's) and those of this
 * database running after it.
 */
const READ_AFTER = {
  name: 'vellum_feed_after',
  text: `SELECT ${IN_PROGRESS} AS in_progress, ${RUNNING} AS running, x.*
  FROM pg_current_snapshot() AS s
  LEFT JOIN LATERAL (
    SELECT r.id::text AS id, r.activity::text AS activity, r.collection, r.item, r.data::text AS data, r.delta::text AS delta,
           r.parent::text AS parent, r.version, a.action, a."user", a.timestamp, a.ip, a.user_agent,
           a.collection AS activity_collection, a.item AS activity_item, a.origin, a.comment
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
      comment: r.comment as string | null,
    });
  }
  return { rows: out, inProgress: new Set(first.in_progress as string[]), running: first.running as string[] };
}

/** The newest revision id (0 when there is none) and the transactions of this database running after it was read. */
export async function readHead(pool: Pick<Pool, 'query'>): Promise<{ id: number; running: string[] }> {
  const { rows } = await pool.query<{ id: string | null; running: string[] }>(`SELECT (SELECT max(id) FROM revisions)::text AS id, ${RUNNING} AS running`);
  return { id: Number(rows[0]!.id ?? 0), running: rows[0]!.running };
}

/** The transactions in progress in a new snapshot (32-bit ids, as text). */
export async function inProgressNow(pool: Pick<Pool, 'query'>): Promise<Set<string>> {
  const { rows } = await pool.query<{ ids: string[] }>(`SELECT ${IN_PROGRESS} AS ids FROM pg_current_snapshot() AS s`);
  return new Set(rows[0]!.ids);
}

/**
 * The first revision id recorded at or after `cutoff` (retention may have pruned revisions before it), or null when
 * none is that recent.
 */
export async function firstIdSince(pool: Pick<Pool, 'query'>, cutoff: Date): Promise<number | null> {
  const { rows } = await pool.query<{ id: string | null }>(`SELECT min(id)::text AS id FROM revisions WHERE timestamp >= $1`, [cutoff]);
  return rows[0]!.id === null ? null : Number(rows[0]!.id);
}
