import type { Queryable } from './items-pool';

/** A content version as stored (and as the API shows it: Directus 11 `directus_versions` fields). */
export interface VersionRow {
  id: string;
  key: string;
  name: string | null;
  collection: string;
  item: string;
  hash: string;
  date_created: string;
  user_created: string | null;
  date_updated: string | null;
  user_updated: string | null;
  delta: Record<string, unknown> | null;
  /** Scheduled promote: when, whether despite a moved main, and how it went (null: never scheduled). */
  publish_at: string | null;
  publish_force: boolean;
  publish_status: 'scheduled' | 'done' | 'failed' | null;
  publish_error: string | null;
}

/** A due scheduled promote as the scheduler claims it: the version and who scheduled it, against which hash. */
export interface DueVersion extends VersionRow {
  publish_user: string | null;
  publish_role: string | null;
  publish_admin: boolean;
  publish_hash: string | null;
}

/** What `PATCH /versions/:id` with `publish_at` writes: a schedule, or null columns (cancelled). */
export interface PublishSchedule {
  publish_at: Date | null;
  publish_force: boolean;
  publish_user: string | null;
  publish_role: string | null;
  publish_admin: boolean;
  publish_hash: string | null;
  publish_status: 'scheduled' | null;
  publish_error: null;
}

const COLUMNS = `"id", "key", "name", "collection", "item", "hash", "date_created", "user_created", "date_updated", "user_updated", "delta",
  "publish_at", "publish_force", "publish_status", "publish_error"`;

/** The `content_versions` table (the items database, public schema). Unique (collection, item, key): 23505 on a taken key. */
export const versionsRepository = {
  async insert(db: Queryable, v: Pick<VersionRow, 'id' | 'key' | 'name' | 'collection' | 'item' | 'hash' | 'user_created'>, at: Date): Promise<VersionRow> {
    const r = await db.query<VersionRow>(
      `INSERT INTO content_versions ("id", "key", "name", "collection", "item", "hash", "date_created", "user_created")
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${COLUMNS}`,
      [v.id, v.key, v.name, v.collection, v.item, v.hash, at, v.user_created],
    );
    return r.rows[0]!;
  },

  /** One version; `lock`: held FOR UPDATE until the transaction ends (saves to one version take turns). */
  async get(db: Queryable, id: string, lock = false): Promise<VersionRow | undefined> {
    const r = await db.query<VersionRow>(`SELECT ${COLUMNS} FROM content_versions WHERE "id" = $1${lock ? ' FOR UPDATE' : ''}`, [id]);
    return r.rows[0];
  },

  async update(
    db: Queryable,
    id: string,
    set: { key?: string; name?: string | null; delta?: Record<string, unknown> } & Partial<PublishSchedule>,
    user: string | null,
    at: Date,
  ) {
    const cols = Object.entries(set).filter(([, v]) => v !== undefined);
    const values: unknown[] = [id, user, at];
    const assign = cols.map(([c, v]) => `"${c}" = $${values.push(c === 'delta' ? JSON.stringify(v) : v)}`);
    const r = await db.query<VersionRow>(
      `UPDATE content_versions SET ${[...assign, `"user_updated" = $2`, `"date_updated" = $3`].join(', ')} WHERE "id" = $1 RETURNING ${COLUMNS}`,
      values,
    );
    return r.rows[0];
  },

  /** Whether a version with this id exists (whoever may see it): 404 rather than 403 when it does not. */
  async exists(db: Queryable, id: string): Promise<boolean> {
    return ((await db.query(`SELECT 1 FROM content_versions WHERE "id" = $1`, [id])).rowCount ?? 0) > 0;
  },

  /** The oldest due scheduled promote no other scheduler holds, locked until the transaction ends (SKIP LOCKED). */
  async claimDue(db: Queryable): Promise<DueVersion | undefined> {
    const r = await db.query<DueVersion>(
      `SELECT ${COLUMNS}, "publish_user", "publish_role", "publish_admin", "publish_hash" FROM content_versions
       WHERE "publish_status" = 'scheduled' AND "publish_at" <= now() ORDER BY "publish_at" LIMIT 1 FOR UPDATE SKIP LOCKED`,
    );
    return r.rows[0];
  },

  /** The scheduled promote's outcome (in the transaction that claimed it, with the promote's own writes). */
  async finish(db: Queryable, id: string, status: 'done' | 'failed', error: string | null): Promise<void> {
    await db.query(`UPDATE content_versions SET "publish_status" = $2, "publish_error" = $3 WHERE "id" = $1`, [id, status, error]);
  },

  /** Milliseconds until the next scheduled promote is due (0: one is due now), or null when none is scheduled. */
  async nextDueIn(db: Queryable): Promise<number | null> {
    const r = await db.query<{ ms: string | null }>(
      `SELECT GREATEST(0, EXTRACT(EPOCH FROM (min("publish_at") - now())) * 1000)::bigint::text AS ms
       FROM content_versions WHERE "publish_status" = 'scheduled'`,
    );
    const ms = r.rows[0]?.ms;
    return ms === null || ms === undefined ? null : Number(ms);
  },

  async delete(db: Queryable, id: string): Promise<boolean> {
    return ((await db.query(`DELETE FROM content_versions WHERE "id" = $1`, [id])).rowCount ?? 0) > 0;
  },

  /** The item's hash: its version in item_versions (bumped by every write of it), '0' for an item never written since. */
  async mainHash(db: Queryable, collection: string, item: string): Promise<string> {
    const r = await db.query<{ version: string }>(`SELECT version::text AS version FROM item_versions WHERE collection = $1 AND item = $2`, [collection, item]);
    return r.rows[0]?.version ?? '0';
  },
};
