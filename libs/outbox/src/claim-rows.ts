import type { PoolClient } from 'pg';
import type { OutboxRecord } from './relay-types';

/**
 * Claim: lock up to `batchSize` unpublished rows in `seq` order inside the caller's transaction, skipping rows
 * another relay holds (`SKIP LOCKED`, so replicas never publish a row twice at once) and rows in `skip` (handed over,
 * awaiting their consumers).
 */
export async function claimRows(client: Pick<PoolClient, 'query'>, batchSize: number, skip: Iterable<string>): Promise<OutboxRecord[]> {
  const { rows } = await client.query<OutboxRecord>(
    `SELECT "id", "destination", "subject", "payload", "headers" FROM "outbox"
          WHERE "published_at" IS NULL AND NOT ("id" = ANY($2::uuid[])) ORDER BY "seq" LIMIT $1 FOR UPDATE SKIP LOCKED`,
    [batchSize, [...skip]],
  );
  return rows;
}
