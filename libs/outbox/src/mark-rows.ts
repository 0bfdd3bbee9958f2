import type { Pool, PoolClient } from 'pg';

type Queryable = Pick<PoolClient, 'query'>;

/** Mark: the published rows, in the transaction that claimed them. */
export async function markPublished(client: Queryable, ids: string[]): Promise<void> {
  if (ids.length) await client.query(`UPDATE "outbox" SET "published_at" = now() WHERE "id" = ANY($1::uuid[])`, [ids]);
}

/** Mark: a row whose publish failed counts an attempt and keeps the error (first 1,000 characters). */
export async function markFailed(client: Queryable, id: string, err: Error): Promise<void> {
  await client.query(`UPDATE "outbox" SET "attempts" = "attempts" + 1, "last_error" = $2 WHERE "id" = $1`, [id, err.message.slice(0, 1000)]);
}

/** Published rows older than `retentionMs` are deleted. */
export async function deletePublished(pool: Pick<Pool, 'query'>, retentionMs: number): Promise<void> {
  await pool.query(`DELETE FROM "outbox" WHERE "published_at" < now() - ($1::bigint * interval '1 millisecond')`, [retentionMs]);
}
