import type { ItemChangeEvent } from '@vellum/contracts';
import { enqueueOutbox, type OutboxMessage } from '@vellum/outbox';
import { bumpItemVersions } from '../data/item-versions.repository';
import type { Queryable } from '../data/items-pool';

/**
 * Gives each item-change event of one write its item's next version (`item_version`, in the order of
 * `messages` when one write changes an item twice) and enqueues them in the write's transaction. Call after the
 * rows were written: the row lock orders concurrent writes of an item, and so its versions.
 */
export async function enqueueItemChanges(db: Queryable, collection: string, messages: OutboxMessage[]): Promise<void> {
  const events = messages.map((m) => m.payload as ItemChangeEvent);
  const counts = new Map<string, number>();
  for (const e of events) counts.set(e.item, (counts.get(e.item) ?? 0) + 1);
  const last = await bumpItemVersions(db, collection, counts);
  const next = new Map([...counts].map(([item, n]) => [item, last.get(item)! - n + 1]));
  for (const e of events) {
    const v = next.get(e.item)!;
    e.item_version = v;
    next.set(e.item, v + 1);
  }
  await enqueueOutbox(db, messages);
}
