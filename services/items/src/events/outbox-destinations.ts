import { ITEMS_STREAM, ITEMS_SUBJECTS } from '@vellum/contracts';
import type { OutboxDestination } from '@vellum/outbox';

/** Where the items outbox relay publishes: the item changes (built in domain/item-change.ts) on the ITEMS stream. */
export const itemsOutboxDestinations: Record<string, OutboxDestination> = {
  [ITEMS_STREAM]: { type: 'stream', subjects: ITEMS_SUBJECTS },
};
