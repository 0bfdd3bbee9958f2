import type { ItemChangeEvent } from '@vellum/contracts';
import { enqueueOutbox, type OutboxMessage } from '@vellum/outbox';
import type { Queryable } from '../data/items-pool';

/** An item-change event of a write and the version its item got in that write's statement. */
export interface VersionedChange {
  message: OutboxMessage;
  version: number;
}

/**
 * Gives each item-change event of one write its item's version (`item_version`, bumped under the item's row lock
 * by the statement that wrote it) and enqueues them all in the write's transaction, in order.
 */
export async function enqueueItemChanges(db: Queryable, changes: VersionedChange[]): Promise<void> {
  for (const c of changes) (c.message.payload as ItemChangeEvent).item_version = c.version;
  await enqueueOutbox(
    db,
    changes.map((c) => c.message),
  );
}
