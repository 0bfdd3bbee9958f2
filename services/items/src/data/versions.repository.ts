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
}

const COLUMNS = `"id", "key", "name", "collection", "item", "hash", "date_created", "user_created", "date_updated", "user_updated", "delta"`;

/** The `content_versions` table (the items database, public schema). Unique (collection, item, key): 23505 on a taken key. */
export const versionsRepository = {
  async insert(db: Queryable, v: Omit<VersionRow, 'date_created' | 'date_updated' | 'user_updated' | 'delta'>, at: Date): Promise<VersionRow> {
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

  async update(db: Queryable, id: string, set: { key?: string; name?: string | null; delta?: Record<string, unknown> }, user: string | null, at: Date) {
    const cols = Object.entries(set).filter(([, v]) => v !== undefined);
    const values: unknown[] = [id, user, at];
    const assign = cols.map(([c, v]) => `"${c}" = $${values.push(c === 'delta' ? JSON.stringify(v) : v)}`);
    const r = await db.query<VersionRow>(
      `UPDATE content_versions SET ${[...assign, `"user_updated" = $2`, `"date_updated" = $3`].join(', ')} WHERE "id" = $1 RETURNING ${COLUMNS}`,
      values,
    );
    return r.rows[0];
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
