import type { Pool } from 'pg';
import { claimRows } from './claim-rows';
import { markFailed, markPublished } from './mark-rows';
import { publishRows, type PublishOptions } from './publish-rows';
import type { SettleTracker } from './settle-tracker';

export interface BatchOptions extends Omit<PublishOptions, 'handOver'> {
  pool: Pool;
  batchSize: number;
  tracker: SettleTracker;
  /** Messaging that does not outlive the process: queue and stream rows are marked once settled (the tracker). */
  settles: boolean;
}

/**
 * One batch in one transaction: mark what settled since, claim, publish, mark (and commit). Returns how many rows
 * were published; throws after recording a failure (the failed row counts an attempt and is tried again later).
 */
export async function relayBatch(opts: BatchOptions): Promise<number> {
  const { pool, tracker } = opts;
  await tracker.mark();
  const client = await pool.connect();
  let outcome;
  try {
    await client.query('BEGIN');
    const rows = await claimRows(client, opts.batchSize, tracker.awaiting);
    outcome = await publishRows(rows, { ...opts, handOver: opts.settles ? (id) => tracker.handOver(id) : null });
    await markPublished(client, outcome.done);
    if (outcome.failure) await markFailed(client, outcome.failure.id, outcome.failure.err);
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
  if (outcome.failure) {
    tracker.failed(outcome.failure.id);
    throw outcome.failure.err;
  }
  return outcome.done.length + outcome.handedOver.length;
}
