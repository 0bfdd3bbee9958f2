import { auditEventSchema, itemChangeEventSchema, ITEMS_STREAM, ITEMS_SUBJECTS } from '@vellum/contracts';
import type { Logger } from '@vellum/logger';
import type { Delivery, Messaging, Subscription } from '@vellum/messaging';
import type { EventWriter, RecordableEvent } from '../data/event.writer';

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
   * How long an item change stays parked while its item's previous version is not recorded, before it is
   * recorded anyway, out of order, with a warning (default 60 s: longer than a crashed replica's deliveries take
   * to come back). Checked every orderWaitMs / 10 (at least every 5 s).
   */
  orderWaitMs?: number;
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
  const record = batchRecorder(opts);
  const sweep = releaseOverdueEvery(opts, opts.orderWaitMs ?? 60_000);
  const subscription = await stream.subscribe<unknown>({
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
      await record(parsed.event);
    },
  });
  return {
    // the consumer's lag for the metrics (vellum_consumer_pending)
    stats: subscription.stats?.bind(subscription),
    stop: async () => {
      clearInterval(sweep);
      await subscription.stop();
    },
  };
}

/**
 * Records an event with the others that arrive with it, in one write (one batch at a time): resolves once its batch
 * is recorded, duplicate or parked (until its item's previous version is recorded), rejects when the batch failed.
 */
function batchRecorder(opts: Pick<ItemEventsConsumerOptions, 'writer' | 'logger'>): (event: RecordableEvent) => Promise<void> {
  type Waiter = { event: RecordableEvent; resolve: () => void; reject: (e: unknown) => void };
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
          // recorded, duplicate or parked (until its item's previous version is recorded): acknowledged
          await opts.writer.write(batch.map((w) => w.event));
          for (const w of batch) w.resolve();
        } catch (err) {
          opts.logger.error({ err, events: batch.length }, 'recording a batch of item events failed; they will be redelivered');
          for (const w of batch) w.reject(err);
        }
      }
    } finally {
      running = false;
    }
  };
  return (event) =>
    new Promise<void>((resolve, reject) => {
      queue.push({ event, resolve, reject });
      setImmediate(() => void flush());
    });
}

/** Changes parked too long (their predecessor is lost, or very late) are recorded anyway; checked every orderWaitMs / 10 (at most 5 s). */
function releaseOverdueEvery(opts: Pick<ItemEventsConsumerOptions, 'writer' | 'logger'>, orderWaitMs: number): NodeJS.Timeout {
  let sweeping = false;
  const sweep = setInterval(
    () => {
      if (sweeping) return;
      sweeping = true;
      opts.writer
        .releaseOverdue(orderWaitMs)
        .then((released) => {
          for (const e of released) {
            opts.logger.warn(
              { collection: e.collection, item: e.item, itemVersion: e.item_version },
              "an item change's previous version was not recorded in time; recorded it out of order",
            );
          }
        })
        .catch((err) => opts.logger.error({ err }, 'recording parked item changes failed; will try again'))
        .finally(() => (sweeping = false));
    },
    Math.min(orderWaitMs / 10, 5000),
  );
  sweep.unref();
  return sweep;
}
