import { MAIL_QUEUE, MAIL_SUBJECTS } from '@vellum/contracts';
import type { ConsumerStats, KeyValueMap, Messaging, Subscription } from '@vellum/messaging';
import { mailJobHandler, type MailJobHandlerOptions, type SentRecord } from './mail-job.handler';

/** The consumer group every mailer replica joins (they share the jobs). */
export const MAILER_DURABLE = 'mailer';
/**
 * Job ids already sent (idempotency across redeliveries, replicas and crashes): a JetStream key-value bucket, or
 * in the embedded topology an in-process bucket kept in PostgreSQL (deploy/local `openDurableBuckets`).
 */
export const MAIL_SENT_BUCKET = 'vellum_mail_sent';

export interface MailJobConsumerOptions extends MailJobHandlerOptions {
  messaging: Messaging;
  backoffMs: number[];
  ackWaitMs: number;
  concurrency: number;
  /** The sent-ids bucket's maximum age (EMAIL_SENT_IDS_TTL). */
  sentIdsTtlMs: number;
}

export interface MailJobConsumer {
  stop(): Promise<void>;
  /** The group's backlog on the queue (metrics). */
  stats?(): Promise<ConsumerStats>;
}

/**
 * One member of the durable, queue-shared `mailer` group on the MAIL work queue.
 * - invalid / unknown-version job → dead letter now;
 * - already in the sent-ids bucket → ack without sending (a redelivery after a send whose ack was lost);
 * - sent (SMTP answered 250) → recorded, then acked (the handler resolves);
 * - permanent failure (5xx) → dead letter now, no retry;
 * - temporary failure (4xx, connection refused, timeout) → throw: nak with the next backoff delay, or dead letter
 *   with the reason once the attempts are exhausted.
 */
export async function startMailJobConsumer(o: MailJobConsumerOptions): Promise<MailJobConsumer> {
  const queue = await o.messaging.workQueue(MAIL_QUEUE, { subjects: MAIL_SUBJECTS });
  const sent: KeyValueMap<SentRecord> = await o.messaging.keyValue<SentRecord>(MAIL_SENT_BUCKET, { maxAgeMs: o.sentIdsTtlMs });
  const handler = mailJobHandler(o, sent);
  const subscription: Subscription = await queue.consume<unknown>({
    durable: MAILER_DURABLE,
    handler,
    maxDeliver: o.maxAttempts,
    ackWaitMs: o.ackWaitMs,
    backoffMs: o.backoffMs,
    concurrency: o.concurrency,
  });
  return { stop: () => subscription.stop(), stats: subscription.stats?.bind(subscription) };
}
