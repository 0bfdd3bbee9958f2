import { itemChangeMessage as buildItemChange, type ItemChangeEvent } from '@vellum/contracts';
import type { Accountability } from '@vellum/http';
import type { OutboxMessage } from '@vellum/outbox';

export interface ChangeContext {
  accountability: Accountability | undefined;
  now: Date;
  requestId?: string;
  /** The write restores an earlier revision: its creates and updates are recorded with the action `revert`. */
  revert?: boolean;
  /** The write promotes a content version: its updates are recorded with the action `promote`. */
  promote?: boolean;
}

/** A nested write's event: its id chosen ahead (children name it before it is built) and the event of the row that carried it. */
export interface EventLink {
  id: string;
  parent: string | null;
}

/** One item-change event of a write, as an outbox message for the ITEMS stream (built by @vellum/contracts). */
export function itemChangeMessage(
  ctx: ChangeContext,
  collection: string,
  action: ItemChangeEvent['action'],
  item: unknown,
  data: Record<string, unknown> | null,
  delta: Record<string, unknown> | null,
  link?: EventLink,
): OutboxMessage {
  const actor = ctx.accountability ?? { user: null };
  if (ctx.revert && action !== 'delete') action = 'revert';
  else if (ctx.promote && action === 'update') action = 'promote';
  const m = buildItemChange(
    { collection, item: String(item), action, data, delta, actor, at: ctx.now },
    ctx.requestId ? { 'x-request-id': ctx.requestId } : {},
  );
  if (link) {
    m.id = m.payload.id = link.id;
    if (link.parent) m.payload.parent_event = link.parent;
  }
  return m;
}

export const pick = (row: Record<string, unknown>, keys: string[]) => Object.fromEntries(keys.map((k) => [k, row[k]]));
