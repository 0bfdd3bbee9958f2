import type { TemplateName } from './mail-templates';

type Counter = 'mails_sent_total' | 'mails_retried_total' | 'mails_dead_lettered_total' | 'mails_duplicates_skipped_total';

const help: Record<Counter, string> = {
  mails_sent_total: 'Mails accepted by the transport (SMTP server or file), by template.',
  mails_retried_total: 'Send attempts that failed temporarily and were scheduled for a retry, by template.',
  mails_dead_lettered_total: 'Mail jobs given up on (permanent failure, exhausted retries, invalid job), by template.',
  mails_duplicates_skipped_total: 'Redelivered jobs already sent (idempotency by job id), acknowledged without sending.',
};

/** Counters by template, exposed in the Prometheus text format (written by hand: four counters need no library). */
export class MailMetrics {
  private readonly values = new Map<Counter, Map<string, number>>();

  inc(counter: Counter, template: TemplateName | 'unknown'): void {
    let byTemplate = this.values.get(counter);
    if (!byTemplate) this.values.set(counter, (byTemplate = new Map()));
    byTemplate.set(template, (byTemplate.get(template) ?? 0) + 1);
  }

  get(counter: Counter, template?: TemplateName | 'unknown'): number {
    const byTemplate = this.values.get(counter);
    if (!byTemplate) return 0;
    if (template) return byTemplate.get(template) ?? 0;
    let sum = 0;
    for (const v of byTemplate.values()) sum += v;
    return sum;
  }

  /** text/plain; version=0.0.4 */
  render(): string {
    const lines: string[] = [];
    for (const counter of Object.keys(help) as Counter[]) {
      lines.push(`# HELP ${counter} ${help[counter]}`, `# TYPE ${counter} counter`);
      const byTemplate = this.values.get(counter);
      if (!byTemplate || byTemplate.size === 0) lines.push(`${counter} 0`);
      else for (const [t, v] of byTemplate) lines.push(`${counter}{template="${t.replace(/["\\\n]/g, '_')}"} ${v}`);
    }
    return `${lines.join('\n')}\n`;
  }
}
