import { randomUUID } from 'node:crypto';
import { ITEM_CHANGE_EVENT_VERSION, type ItemChangeEvent } from './item-change-event';
import { ITEMS_STREAM, itemChangeSubject } from './subjects';

/** Who made a change, as a producer knows it (the request's accountability and client). */
export interface ChangeActor {
  user: string | null;
  role?: string | null;
  ip?: string | null;
  userAgent?: string | null;
  origin?: string | null;
}

export interface ItemChange {
  collection: string;
  item: string;
  action: ItemChangeEvent['action'];
  /** The item after the change; null for a delete. */
  data: Record<string, unknown> | null;
  /** The changed fields, when the producer knows them; absent: the consumer computes them. */
  delta?: Record<string, unknown> | null;
  actor: ChangeActor;
  at: Date;
}

/** An outbox message on the ITEMS stream (structurally @vellum/outbox's OutboxMessage). */
export interface ItemChangeMessage {
  id: string;
  destination: typeof ITEMS_STREAM;
  subject: string;
  payload: ItemChangeEvent;
  headers?: Record<string, string>;
}

/**
 * The one place an item-change event is built (every producer — items, auth — calls it): a new event id, which is
 * also the message id (the dedupe key end to end), the actor with every field present, the subject
 * `items.<collection>.<action>` on the ITEMS stream.
 */
export function itemChangeMessage(change: ItemChange, headers?: Record<string, string>): ItemChangeMessage {
  const { actor } = change;
  const event: ItemChangeEvent = {
    v: ITEM_CHANGE_EVENT_VERSION,
    id: randomUUID(),
    collection: change.collection,
    item: change.item,
    action: change.action,
    data: change.data,
    ...(change.delta !== undefined ? { delta: change.delta } : {}),
    actor: { user: actor.user, role: actor.role ?? null, ip: actor.ip ?? null, user_agent: actor.userAgent ?? null, origin: actor.origin ?? null },
    timestamp: change.at.toISOString(),
  };
  return {
    id: event.id,
    destination: ITEMS_STREAM,
    subject: itemChangeSubject(change.collection, change.action),
    payload: event,
    ...(headers ? { headers } : {}),
  };
}
