import { backoffDelay, type Delivery } from '@vellum/messaging';
import type { Logger } from '@vellum/logger';
import type { RecordableEvent, WriteOutcome } from '../data/event.writer';

/** Delays between tries of a change that waits for its predecessor (the last one repeats). */
const RETRY_MS = [5, 10, 20, 50, 100, 200];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface OrderPolicy {
  /** How long one delivery is held in flight while its predecessor is missing, before it is nak'ed. */
  holdMs: number;
  maxDeliver: number;
  backoffMs: readonly number[];
  logger: Pick<Logger, 'warn'>;
}

/**
 * Records one change so that an item's revisions follow its versions (issue 23.2). `record(false)` answers
 * `waiting` while the item's previous version is not recorded (it is in flight at another replica, in this
 * batch's queue, or being redelivered): the delivery is tried again for up to `holdMs`, then nak'ed with the
 * consumer's backoff so it frees its slot (the predecessor may need it). On its last delivery it is recorded
 * anyway, out of order, with a warning — a change whose predecessor never comes is not lost.
 */
export async function recordInOrder(
  d: Delivery<unknown>,
  event: RecordableEvent,
  record: (force: boolean) => Promise<WriteOutcome>,
  policy: OrderPolicy,
): Promise<void> {
  const since = Date.now();
  for (let tries = 0; (await record(false)) === 'waiting'; tries++) {
    if (Date.now() - since < policy.holdMs) {
      await sleep(RETRY_MS[Math.min(tries, RETRY_MS.length - 1)]!);
      continue;
    }
    if (d.deliveryCount < policy.maxDeliver) {
      await d.nak(backoffDelay(policy.backoffMs, d.deliveryCount));
      return;
    }
    const e = event as Extract<RecordableEvent, { kind: 'item' }>;
    policy.logger.warn(
      { collection: e.collection, item: e.item, itemVersion: e.item_version, deliveries: d.deliveryCount },
      "an item change's previous version was not recorded in time; recording it out of order",
    );
    await record(true);
    return;
  }
}
