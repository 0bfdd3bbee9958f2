import { MAIL_JOB_VERSION, mailJobSchema, type MailJob } from '@vellum/contracts';
import type { TemplateName } from '../domain/mail-templates';
import { TEMPLATE_NAMES } from '../domain/mail-templates';

export type ParsedMailJob = { ok: true; job: MailJob } | { ok: false; reason: string; template: TemplateName | 'unknown' };

function templateOf(data: unknown): TemplateName | 'unknown' {
  const t = (data as { template?: unknown } | null)?.template;
  return TEMPLATE_NAMES.includes(t as TemplateName) ? (t as TemplateName) : 'unknown';
}

/** Versioned: an unknown version or a malformed job is dead-lettered at once (retrying cannot fix it). */
export function parseMailJob(data: unknown): ParsedMailJob {
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
  if (protocol !== 'https:' && protocol !== 'http:') return { ok: false, reason: `invalid mail job: data.url must be http(s), not ${protocol}`, template };
  return { ok: true, job: r.data };
}
