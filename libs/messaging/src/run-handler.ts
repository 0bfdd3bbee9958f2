import { runWithRequestContext } from '@vellum/logger';
import { startSpan } from '@vellum/tracing';
import { backoffDelay } from './consume-options';
import type { Delivery, Handler } from './delivery';
import { errorMessage } from './subject-match';

interface HandlerPolicy {
  maxDeliver: number;
  backoffMs: readonly number[];
}

/**
 * Wraps a transport delivery so the handler semantics are the same everywhere: the first settle (ack, nak or
 * term) wins; a handler that resolves without settling acks; one that throws naks with the next backoff delay,
 * or dead-letters once `deliveryCount` has reached `maxDeliver`.
 */
export async function runHandler<T>(raw: Delivery<T>, handler: Handler<T>, policy: HandlerPolicy): Promise<void> {
  let settled = false;
  const once =
    <A extends unknown[]>(fn: (...a: A) => Promise<void>) =>
    async (...a: A): Promise<void> => {
      if (settled) return;
      settled = true;
      await fn(...a);
    };
  const d: Delivery<T> = {
    id: raw.id,
    subject: raw.subject,
    data: raw.data,
    headers: raw.headers,
    deliveryCount: raw.deliveryCount,
    ack: once(() => raw.ack()),
    nak: once((delayMs?: number) => raw.nak(delayMs)),
    term: once((reason: string) => raw.term(reason)),
    working: () => (settled ? Promise.resolve() : raw.working()),
  };
  try {
    // The handler runs in the context of the request that caused the message: its log lines and the messages
    // it produces carry the same request id.
    const requestId = raw.headers['x-request-id'] ?? raw.id;
    const span = startSpan(
      `consume ${raw.subject}`,
      raw.headers.traceparent,
      { 'messaging.destination.name': raw.subject, 'messaging.message.id': raw.id, 'vellum.request_id': requestId },
      'consumer',
    );
    try {
      await runWithRequestContext({ requestId, traceparent: span.traceparent }, () => handler(d));
      span.end({ 'messaging.delivery_count': raw.deliveryCount });
    } catch (err) {
      span.end({ 'messaging.delivery_count': raw.deliveryCount }, true);
      throw err;
    }
    if (!settled) await d.ack();
  } catch (err) {
    if (settled) return; // already settled by the handler; nothing more to decide
    if (d.deliveryCount >= policy.maxDeliver) await d.term(errorMessage(err));
    else await d.nak(backoffDelay(policy.backoffMs, d.deliveryCount));
  }
}

/** Reason recorded when a message exceeded its deliveries without a handler giving up on it (ack wait expired). */
export const maxDeliveriesReason = 'max deliveries exceeded (not acknowledged in time)';
