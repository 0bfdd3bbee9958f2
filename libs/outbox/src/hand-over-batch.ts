import type { Pool } from 'pg';
import { RawJson } from '@vellum/contracts';
import { markFailed } from './mark-rows';
import { markDeadLettered } from './settle-tracker';
import { publishRows } from './publish-rows';
import type { BatchOptions } from './relay-batch';
import type { OutboxRecord } from './relay-types';

/**
 * Mark the settled rows and claim the next ones in ONE statement (no transaction: the claim's snapshot still sees
 * the rows being marked as unpublished, and they are still awaited, so it skips them). Rows in `skip` (handed over,
 * awaiting their consumers) are left out; at most `limit` rows, in `seq` order.
 */
const MARK_AND_CLAIM = {
  name: 'vellum_outbox_mark_and_claim',
  text: `WITH marked AS (UPDATE "outbox" SET "published_at" = now() WHERE "id" = ANY($3::uuid[]) RETURNING 1)
SELECT "id", "destination", "subject", "payload"::text AS "payload", "headers" FROM "outbox"
 WHERE "published_at" IS NULL AND NOT ("id" = ANY($2::uuid[])) ORDER BY "seq" LIMIT $1`,
};

/**
 * One pass for messaging that does not outlive the process (in-process, `settles`): the rows whose consumers
 * finished are marked and the next rows claimed in one statement, then handed over (published; marked once their
 * consumers finish). At most `maxAwaiting` rows are handed over and not yet settled: past that nothing is claimed
 * until consumers catch up, so the claim's list of awaited rows stays short and the backlog waits in the table,
 * not in memory. Returns how many rows were handed over; throws after recording a failure (the failed row counts
 * an attempt and is tried again later).
 */
export async function handOverBatch(opts: BatchOptions): Promise<number> {
  const { pool, tracker } = opts;
  const settled = tracker.take();
  const plain = settled.filter((s) => s.deadLetters.length === 0).map((s) => s.id);
  const room = Math.min(opts.batchSize, opts.maxAwaiting - (tracker.awaiting.size - settled.length));
  let rows: OutboxRecord[] = [];
  try {
    await markDeadLettered(pool, settled);
    if (room > 0) rows = (await pool.query<OutboxRecord>({ ...MARK_AND_CLAIM, values: [room, [...tracker.awaiting], plain] })).rows;
    else if (plain.length) await pool.query(`UPDATE "outbox" SET "published_at" = now() WHERE "id" = ANY($1::uuid[])`, [plain]);
    // the payload as its JSON text, handed on as it is (not parsed here to be serialised again by the publish)
    for (const r of rows) if (r.payload !== null) r.payload = new RawJson(r.payload as string);
  } catch (err) {
    tracker.putBack(settled);
    throw err;
  }
  tracker.marked(settled);
  const published = await publishRows(rows, { ...opts, handOver: (id) => tracker.handOver(id) });
  // published and done at once (a KV entry): settled now, marked by the next pass's statement
  for (const id of published.done) tracker.handOver(id)({ deadLetters: [] });
  if (published.failure) {
    tracker.failed(published.failure.id);
    await markFailed(pool as Pick<Pool, 'query'>, published.failure.id, published.failure.err);
    throw published.failure.err;
  }
  return published.done.length + published.handedOver.length;
}
