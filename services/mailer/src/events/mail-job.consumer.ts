import { MAIL_JOB_VERSION, MAIL_QUEUE, MAIL_SUBJECTS, mailJobSchema, type MailJob } from '@vellum/contracts';
import type { Logger } from '@vellum/logger';
import type { ConsumerStats, Delivery, KeyValueMap, Messaging, Subscription } from '@vellum/messaging';
import type { MailMetrics } from '../domain/mail-metrics';
import type { MailTemplates, TemplateName } from '../domain/mail-templates';
import { TEMPLATE_NAMES } from '../domain/mail-templates';
import type { MailTransport } from '../domain/mail-transport';
import { classifySendFailure } from '../domain/send-failure';
import { safeJobId } from '../transports/message-options';

/** The consumer group every mailer replica joins (they share the jobs). */
export const MAILER_DURABLE = 'mailer';
/**
 * Job ids already sent (idempotency across redeliveries, replicas and crashes): a JetStream key-value bucket, or
 * in the embedded topology an in-process bucket kept in PostgreSQL (deploy/local `openDurableBuckets`).
 */
export const MAIL_SENT_BUCKET = 'vellum_mail_sent';

export interface SentRecord {
  sent_at: string;
  template: TemplateName;
  response: string;
}

export interface MailJobConsumerOptions {
  messaging: Messaging;
  transport: MailTransport;
  templates: MailTemplates;
  metrics: MailMetrics;
  logger: Logger;
  from: string;
  projectName: string;
  maxAttempts: number;
  backoffMs: number[];
  ackWaitMs: number;
  sendTimeoutMs: number;
  concurrency: number;
  /** The sent-ids bucket's maximum age (EMAIL_SENT_IDS_TTL). */
  sentIdsTtlMs: number;
}

type Parsed = { ok: true; job: MailJob } | { ok: false; reason: string; template: TemplateName | 'unknown' };

function templateOf(data: unknown): TemplateName | 'unknown' {
  const t = (data as { template?: unknown } | null)?.template;
  return TEMPLATE_NAMES.includes(t as TemplateName) ? (t as TemplateName) : 'unknown';
}

/** Versioned: an unknown version or a malformed job is dead-lettered at once (retrying cannot fix it). */
export function parseMailJob(data: unknown): Parsed {
  const template = templateOf(data);
  if (!data || typeof data !== 'object') return { ok: false, reason: 'invalid mail job: not an object', template };
  const v = (data as { v?: unknown }).v;
  if (v !== MAIL_JOB_VERSION)
    return { ok: false, reason: `unsupported mail job version ${JSON.stringify(v)} (this mailer reads v${MAIL_JOB_VERSION})`, template };
  const r = mailJobSchema.safeParse(data);
  if (!r.success) {
    const issues = r.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    return { ok: false, reason: `invalid mail job: ${issues}`, template };
  }
  const protocol = new URL(r.data.data.url).protocol;
  if (protocol !== 'https:' && protocol !== 'http:')
    return { ok: false, reason: `invalid mail job: data.url must be http(s), not ${protocol}`, template };
  return { ok: true, job: r.data };
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
  const log = o.logger;

  const deadLetter = async (d: Delivery<unknown>, template: TemplateName | 'unknown', reason: string) => {
    o.metrics.inc('mails_dead_lettered_total', template);
    log.warn({ job: d.id, template, deliveryCount: d.deliveryCount, reason }, 'mail job dead-lettered');
    await d.term(reason);
  };

  const retryOrGiveUp = async (d: Delivery<unknown>, template: TemplateName, reason: string): Promise<never | void> => {
    if (d.deliveryCount >= o.maxAttempts)
      return deadLetter(d, template, `retries exhausted after ${d.deliveryCount} attempts: ${reason}`);
    o.metrics.inc('mails_retried_total', template);
    log.warn({ job: d.id, template, deliveryCount: d.deliveryCount, reason }, 'mail send failed temporarily; will retry');
    throw new Error(reason);
  };

  const handler = async (d: Delivery<unknown>): Promise<void> => {
    const parsed = parseMailJob(d.data);
    if (!parsed.ok) return deadLetter(d, parsed.template, parsed.reason);
    const job = parsed.job;
    const key = safeJobId(job.id);

    let already: SentRecord | undefined;
    try {
      already = await sent.get(key);
    } catch (err) {
      return retryOrGiveUp(d, job.template, `sent-ids bucket unavailable: ${(err as Error).message}`);
    }
    if (already) {
      o.metrics.inc('mails_duplicates_skipped_total', job.template);
      log.info({ job: job.id, template: job.template, sentAt: already.sent_at }, 'mail job already sent; acknowledged without sending');
      return;
    }

    let rendered;
    try {
      rendered = o.templates.render(job.template, {
        project: job.data.project ?? o.projectName,
        url: job.data.url,
        name: job.data.name ?? 'there',
        to: job.to,
      });
    } catch (err) {
      return deadLetter(d, job.template, `rendering failed: ${(err as Error).message}`);
    }

    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(new Error(`send timed out after ${o.sendTimeoutMs} ms`)), o.sendTimeoutMs);
    let response: string;
    try {
      ({ response } = await o.transport.send(
        { ...rendered, jobId: job.id, template: job.template, from: o.from, to: job.to, url: job.data.url },
        abort.signal,
      ));
    } catch (err) {
      const failure = classifySendFailure(err);
      if (failure.kind === 'permanent') return deadLetter(d, job.template, `permanent failure: ${failure.reason}`);
      return retryOrGiveUp(d, job.template, failure.reason);
    } finally {
      clearTimeout(timer);
    }

    o.metrics.inc('mails_sent_total', job.template);
    log.info({ job: job.id, template: job.template, transport: o.transport.kind, deliveryCount: d.deliveryCount, response }, 'mail sent');
    try {
      await sent.put(key, { sent_at: new Date().toISOString(), template: job.template, response: response.slice(0, 200) });
    } catch (err) {
      // the mail is out: acknowledging is still right; only a redelivery (lost ack) could now send it twice
      log.error({ job: job.id, err: (err as Error).message }, 'mail sent but its id could not be recorded');
    }
  };

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
