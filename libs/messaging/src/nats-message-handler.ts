import type { JsMsg } from '@nats-io/jetstream';
import { backoffDelay, type ResolvedConsumeOptions } from './consume-options';
import type { Delivery } from './delivery';
import type { NatsConsumeContext } from './nats-consumer';
import { maxDeliveriesReason, runHandler } from './run-handler';
import { errorMessage } from './subject-match';

/**
 * What one pulled message comes to: undecodable or past maxDeliver → dead letter; else the handler, through
 * runHandler (ack, nak with backoff, or dead letter once the deliveries are exhausted).
 */
export function natsMessageHandler<T>(ctx: NatsConsumeContext, opts: ResolvedConsumeOptions<T>): (m: JsMsg) => Promise<void> {
  const policy = { maxDeliver: opts.maxDeliver, backoffMs: opts.backoffMs };
  return async (m) => {
    const deliveryCount = m.info.deliveryCount;
    let decoded: ReturnType<typeof decode>;
    try {
      decoded = decode(m);
    } catch (err) {
      await deadLetter(ctx, opts, m, m.headers?.get('Nats-Msg-Id') ?? '', `undecodable payload: ${errorMessage(err)}`, deliveryCount);
      return;
    }
    if (deliveryCount > opts.maxDeliver) {
      await deadLetter(ctx, opts, m, decoded.id, maxDeliveriesReason, deliveryCount - 1);
      return;
    }
    const raw: Delivery<T> = {
      id: decoded.id,
      subject: ctx.names.strip(m.subject),
      data: decoded.data as T,
      headers: decoded.headers,
      deliveryCount,
      ack: async () => m.ack(),
      nak: async (delayMs?: number) => m.nak(delayMs),
      term: (reason: string) => deadLetter(ctx, opts, m, decoded.id, reason, deliveryCount),
      working: async () => m.working(),
    };
    await runHandler(raw, opts.handler, policy);
  };
}

function decode(m: JsMsg): { id: string; headers: Record<string, string>; data: unknown } {
  let id = '';
  const headers: Record<string, string> = {};
  if (m.headers)
    for (const [k, vs] of m.headers) {
      if (k === 'Nats-Msg-Id') id = vs[0] ?? '';
      else if (!k.startsWith('Nats-')) headers[k] = vs[0] ?? '';
    }
  return { id, headers, data: m.data.length ? JSON.parse(m.string()) : null };
}

/** A copy to the dead letters, then the message terminated (kept, nak'ed, when the copy fails). */
async function deadLetter(
  ctx: NatsConsumeContext,
  opts: Pick<ResolvedConsumeOptions<unknown>, 'durable' | 'backoffMs'>,
  m: JsMsg,
  id: string,
  reason: string,
  deliveryCount: number,
): Promise<void> {
  try {
    await ctx.deadLetters.add(m, {
      id,
      subject: ctx.names.strip(m.subject),
      reason,
      deliveryCount,
      durable: opts.durable,
    });
  } catch (err) {
    m.nak(backoffDelay(opts.backoffMs, deliveryCount)); // keep it; it comes back and is dead-lettered then
    throw new Error(`dead-lettering ${id} failed: ${errorMessage(err)}`);
  }
  // Plain +TERM: nats-server 2.9 ignores a term that carries a reason (a 2.10 feature) and redelivers the
  // message after the ack wait. The reason travels with the dead-letter copy instead.
  m.term();
}
