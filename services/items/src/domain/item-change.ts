import { randomUUID } from 'node:crypto';
import { ITEMS_STREAM, ITEM_CHANGE_EVENT_VERSION, itemChangeSubject, type ItemChangeEvent } from '@vellum/contracts';
import type { Accountability } from '@vellum/http';
import type { OutboxMessage } from '@vellum/outbox';

export interface ChangeContext {
  accountability: Accountability | undefined;
  now: Date;
  requestId?: string;
}

/** One item-change event as an outbox message for the ITEMS stream (message id = event id). */
export function itemChangeMessage(
  ctx: ChangeContext,
  collection: string,
  action: ItemChangeEvent['action'],
  item: unknown,
  data: Record<string, unknown> | null,
  delta: Record<string, unknown> | null,
): OutboxMessage {
  const a = ctx.accountability;
  const event: ItemChangeEvent = {
    v: ITEM_CHANGE_EVENT_VERSION,
    id: randomUUID(),
    collection,
    item: String(item),
    action,
    data,
    delta,
    actor: {
      user: a?.user ?? null,
      role: a?.role ?? null,
      ip: a?.ip ?? null,
      user_agent: a?.userAgent ?? null,
      origin: a?.origin ?? null,
    },
    timestamp: ctx.now.toISOString(),
  };
  return {
    id: event.id,
    destination: ITEMS_STREAM,
    subject: itemChangeSubject(collection, action),
    payload: event,
    headers: ctx.requestId ? { 'x-request-id': ctx.requestId } : {},
  };
}

export const pick = (row: Record<string, unknown>, keys: string[]) => Object.fromEntries(keys.map((k) => [k, row[k]]));
