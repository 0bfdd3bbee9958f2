import { Counter, singleMetric, type Registry } from '@vellum/metrics';
import type { TemplateName } from './mail-templates';

type Name = 'mails_sent_total' | 'mails_retried_total' | 'mails_dead_lettered_total' | 'mails_duplicates_skipped_total';

const help: Record<Name, string> = {
  mails_sent_total: 'Mails accepted by the transport (SMTP server or file), by template.',
  mails_retried_total: 'Send attempts that failed temporarily and were scheduled for a retry, by template.',
  mails_dead_lettered_total: 'Mail jobs given up on (permanent failure, exhausted retries, invalid job), by template.',
  mails_duplicates_skipped_total: 'Redelivered jobs already sent (idempotency by job id), acknowledged without sending.',
};

/** The mailer's counters by template, as `vellum_<name>{template}` in the process's registry. */
export class MailMetrics {
  private readonly counters: Record<Name, Counter<'template'>>;
  /** This instance's counts (tests and logs read them synchronously). */
  private readonly values = new Map<Name, Map<string, number>>();

  constructor(registry: Registry) {
    const make = (name: Name) =>
      singleMetric(
        registry,
        `vellum_${name}`,
        () => new Counter({ name: `vellum_${name}`, help: help[name], labelNames: ['template'] as const, registers: [registry] }),
      );
    this.counters = {
      mails_sent_total: make('mails_sent_total'),
      mails_retried_total: make('mails_retried_total'),
      mails_dead_lettered_total: make('mails_dead_lettered_total'),
      mails_duplicates_skipped_total: make('mails_duplicates_skipped_total'),
    };
  }

  inc(counter: Name, template: TemplateName | 'unknown'): void {
    this.counters[counter].inc({ template });
    let byTemplate = this.values.get(counter);
    if (!byTemplate) this.values.set(counter, (byTemplate = new Map()));
    byTemplate.set(template, (byTemplate.get(template) ?? 0) + 1);
  }

  get(counter: Name, template?: TemplateName | 'unknown'): number {
    const byTemplate = this.values.get(counter);
    if (!byTemplate) return 0;
    if (template) return byTemplate.get(template) ?? 0;
    let sum = 0;
    for (const v of byTemplate.values()) sum += v;
    return sum;
  }
}
