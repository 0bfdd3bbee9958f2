import type { Pool } from 'pg';
import { withTransaction } from '@vellum/db';
import { claimRows } from './claim-rows';
import { handOverBatch } from './hand-over-batch';
import { markFailed, markPublished } from './mark-rows';
import { publishRows, type PublishOptions } from './publish-rows';
import type { SettleTracker } from './settle-tracker';

export interface BatchOptions extends Omit<PublishOptions, 'handOver'> {
  pool: Pool;
  batchSize: number;
  tracker: SettleTracker;
  /** Messaging that does not outlive the process: queue and stream rows are marked once settled (the tracker). */
  settles: boolean;
  /** `settles`: at most this many rows handed over and not settled yet (hand-over-batch.ts). */
  maxAwaiting: number;
}

/**
 * One batch. Messaging that settles (in-process): `handOverBatch`. Otherwise in one transaction: mark what settled
 * since, claim, publish, mark (and commit). Returns how many rows
 * were published; throws after recording a failure (the failed row counts an attempt and is tried again later).
 */
export async function relayBatch(opts: BatchOptions): Promise<number> {
  if (opts.settles) return handOverBatch(opts);
  const { pool, tracker } = opts;
  await tracker.mark();
  const outcome = await withTransaction(pool, async (client) => {
    const rows = await claimRows(client, opts.batchSize, tracker.awaiting);
    const published = await publishRows(rows, { ...opts, handOver: null });
    await markPublished(client, published.done);
    if (published.failure) await markFailed(client, published.failure.id, published.failure.err);
    return published;
  });
  if (outcome.failure) {
    tracker.failed(outcome.failure.id);
    throw outcome.failure.err;
  }
  return outcome.done.length + outcome.handedOver.length;
}
