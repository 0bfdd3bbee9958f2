import type { MailJob } from '@vellum/contracts';
import type { Logger } from '@vellum/logger';
import type { Delivery, KeyValueMap } from '@vellum/messaging';
import type { MailMetrics } from '../domain/mail-metrics';
import type { MailTemplates, RenderedMail, TemplateName } from '../domain/mail-templates';
import type { MailTransport } from '../domain/mail-transport';
import { classifySendFailure } from '../domain/send-failure';
import { safeJobId } from '../transports/message-options';
import { parseMailJob } from './parse-mail-job';

export interface SentRecord {
  sent_at: string;
  template: TemplateName;
  response: string;
}

export interface MailJobHandlerOptions {
  transport: MailTransport;
  templates: MailTemplates;
  metrics: MailMetrics;
  logger: Logger;
  from: string;
  projectName: string;
  maxAttempts: number;
  sendTimeoutMs: number;
}

/** What one delivery of a mail job comes to (startMailJobConsumer lists the cases). */
export function mailJobHandler(o: MailJobHandlerOptions, sent: KeyValueMap<SentRecord>): (d: Delivery<unknown>) => Promise<void> {
  return async (d) => {
    const parsed = parseMailJob(d.data);
    if (!parsed.ok) return deadLetter(o, d, parsed.template, parsed.reason);
    const job = parsed.job;
    const key = safeJobId(job.id);

    let already: SentRecord | undefined;
    try {
      already = await sent.get(key);
    } catch (err) {
      return retryOrGiveUp(o, d, job.template, `sent-ids bucket unavailable: ${(err as Error).message}`);
    }
    if (already) {
      o.metrics.inc('mails_duplicates_skipped_total', job.template);
      o.logger.info({ job: job.id, template: job.template, sentAt: already.sent_at }, 'mail job already sent; acknowledged without sending');
      return;
    }

    let rendered: RenderedMail;
    try {
      rendered = renderJob(o, job);
    } catch (err) {
      return deadLetter(o, d, job.template, `rendering failed: ${(err as Error).message}`);
    }

    let response: string;
    try {
      response = await sendWithTimeout(o, job, rendered);
    } catch (err) {
      const failure = classifySendFailure(err);
      if (failure.kind === 'permanent') return deadLetter(o, d, job.template, `permanent failure: ${failure.reason}`);
      return retryOrGiveUp(o, d, job.template, failure.reason);
    }
    await recordSent(o, sent, d, job, response);
  };
}

async function deadLetter(o: MailJobHandlerOptions, d: Delivery<unknown>, template: TemplateName | 'unknown', reason: string): Promise<void> {
  o.metrics.inc('mails_dead_lettered_total', template);
  o.logger.warn({ job: d.id, template, deliveryCount: d.deliveryCount, reason }, 'mail job dead-lettered');
  await d.term(reason);
}

/** Throws (nak with the next backoff delay) unless the attempts are exhausted: then the job is dead-lettered. */
async function retryOrGiveUp(o: MailJobHandlerOptions, d: Delivery<unknown>, template: TemplateName, reason: string): Promise<never | void> {
  if (d.deliveryCount >= o.maxAttempts) return deadLetter(o, d, template, `retries exhausted after ${d.deliveryCount} attempts: ${reason}`);
  o.metrics.inc('mails_retried_total', template);
  o.logger.warn({ job: d.id, template, deliveryCount: d.deliveryCount, reason }, 'mail send failed temporarily; will retry');
  throw new Error(reason);
}

function renderJob(o: MailJobHandlerOptions, job: MailJob): RenderedMail {
  return o.templates.render(job.template, {
    project: job.data.project ?? o.projectName,
    url: job.data.url,
    name: job.data.name ?? 'there',
    to: job.to,
  });
}

/** The transport's response; aborted after sendTimeoutMs. */
async function sendWithTimeout(o: MailJobHandlerOptions, job: MailJob, rendered: RenderedMail): Promise<string> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(new Error(`send timed out after ${o.sendTimeoutMs} ms`)), o.sendTimeoutMs);
  try {
    const { response } = await o.transport.send(
      { ...rendered, jobId: job.id, template: job.template, from: o.from, to: job.to, url: job.data.url },
      abort.signal,
    );
    return response;
  } finally {
    clearTimeout(timer);
  }
}

async function recordSent(o: MailJobHandlerOptions, sent: KeyValueMap<SentRecord>, d: Delivery<unknown>, job: MailJob, response: string): Promise<void> {
  o.metrics.inc('mails_sent_total', job.template);
  o.logger.info({ job: job.id, template: job.template, transport: o.transport.kind, deliveryCount: d.deliveryCount, response }, 'mail sent');
  try {
    await sent.put(safeJobId(job.id), { sent_at: new Date().toISOString(), template: job.template, response: response.slice(0, 200) });
  } catch (err) {
    // the mail is out: acknowledging is still right; only a redelivery (lost ack) could now send it twice
    o.logger.error({ job: job.id, err: (err as Error).message }, 'mail sent but its id could not be recorded');
  }
}
