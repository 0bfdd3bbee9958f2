import { auditEventSchema, itemChangeEventSchema, ITEMS_STREAM, ITEMS_SUBJECTS } from '@vellum/contracts';
import type { Logger } from '@vellum/logger';
import { consumeDefaults, type Delivery, type Messaging, type Subscription } from '@vellum/messaging';
import type { EventWriter, RecordableEvent, WriteOutcome } from '../data/event.writer';
import { recordInOrder } from './record-in-order';

export const REVISIONS_DURABLE = 'revisions';

export interface ItemEventsConsumerOptions {
  messaging: Messaging;
  writer: EventWriter;
  logger: Pick<Logger, 'warn' | 'error' | 'debug'>;
  /** Deliveries in flight = the largest batch written in one transaction (default 64). */
  concurrency?: number;
  ackWaitMs?: number;
  backoffMs?: number[];
  maxDeliver?: number;
  /**
   * How long a delivery is held while its item's previous version is not recorded yet, before it is nak'ed
   * (redelivered on `backoffMs`; recorded out of order on its last delivery). Default 1000, at most ackWaitMs / 2.
   */
  orderHoldMs?: number;
}

/** Validates a delivered payload: an item change or an audit event; otherwise the reason it is malformed. */
export function parseEvent(data: unknown): { event: RecordableEvent } | { reason: string } {
  const kind = typeof data === 'object' && data !== null && (data as { kind?: unknown }).kind === 'audit' ? 'audit' : 'item';
  const parsed = kind === 'audit' ? auditEventSchema.safeParse(data) : itemChangeEventSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { reason: `malformed ${kind} event: ${issue ? `${issue.path.join('.') || '(root)'}: ${issue.message}` : 'invalid'}` };
  }
  return { event: { ...(parsed.data as object), kind } as RecordableEvent };
}

/**
 * The durable consumer (group "revisions") of the ITEMS stream. Deliveries arriving together are written in
 * one transaction (one batch at a time); each handler resolves (ack) once its batch committed, or throws
 * (nak → redelivery) when the batch failed. Malformed events are dead-lettered at once with their reason.
 */
export async function startItemEventsConsumer(opts: ItemEventsConsumerOptions): Promise<Subscription> {
  const stream = await opts.messaging.eventStream(ITEMS_STREAM, { subjects: ITEMS_SUBJECTS });
  type Waiter = { event: RecordableEvent; force: boolean; resolve: (o: WriteOutcome) => void; reject: (e: unknown) => void };
  const order = {
    holdMs: Math.min(opts.orderHoldMs ?? 1000, (opts.ackWaitMs ?? consumeDefaults.ackWaitMs) / 2),
    maxDeliver: opts.maxDeliver ?? consumeDefaults.maxDeliver,
    backoffMs: opts.backoffMs?.length ? opts.backoffMs : consumeDefaults.backoffMs,
    logger: opts.logger,
  };
  let queue: Waiter[] = [];
  let running = false;
  const flush = async () => {
    if (running) return;
    running = true;
    try {
      while (queue.length > 0) {
        const batch = queue;
        queue = [];
        try {
          const force = new Set(batch.filter((w) => w.force).map((w) => w.event.id));
          const outcomes = await opts.writer.write(batch.map((w) => w.event), force);
          batch.forEach((w, i) => w.resolve(outcomes[i]!));
        } catch (err) {
          opts.logger.error({ err, events: batch.length }, 'recording a batch of item events failed; they will be redelivered');
          for (const w of batch) w.reject(err);
        }
      }
    } finally {
      running = false;
    }
  };
  return stream.subscribe<unknown>({
    durable: REVISIONS_DURABLE,
    concurrency: opts.concurrency ?? 64,
    ackWaitMs: opts.ackWaitMs,
    backoffMs: opts.backoffMs,
    maxDeliver: opts.maxDeliver,
    handler: async (d: Delivery<unknown>) => {
      const parsed = parseEvent(d.data);
      if ('reason' in parsed) {
        opts.logger.warn({ messageId: d.id, subject: d.subject, reason: parsed.reason }, 'dead-lettering a malformed item event');
        await d.term(parsed.reason);
        return;
      }
      const record = (force: boolean) =>
        new Promise<WriteOutcome>((resolve, reject) => {
          queue.push({ event: parsed.event, force, resolve, reject });
          setImmediate(() => void flush());
        });
      await recordInOrder(d, parsed.event, record, order);
    },
  });
}
