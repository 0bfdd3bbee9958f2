import { ITEMS_STREAM, ITEMS_SUBJECTS, MAIL_QUEUE, MAIL_SUBJECTS } from '@vellum/contracts';
import type { MessagingSettings } from '@vellum/config';
import { connectNatsMessaging } from '@vellum/messaging';
import type { DeadLetterSource } from './dead-letter-source';

/** Distributed topology: the JetStream dead-letter streams `<prefix>MAIL_DLQ` and `<prefix>ITEMS_DLQ`. */
export async function natsDeadLetters(settings: Pick<MessagingSettings, 'servers' | 'prefix'> & Partial<MessagingSettings>): Promise<DeadLetterSource> {
  const { servers, prefix } = settings;
  const m = await connectNatsMessaging({ ...settings, name: settings.name ?? 'vellum-dead-letters' });
  const queues = [
    { where: MAIL_QUEUE, q: await m.workQueue(MAIL_QUEUE, { subjects: MAIL_SUBJECTS }) },
    { where: ITEMS_STREAM, q: await m.eventStream(ITEMS_STREAM, { subjects: ITEMS_SUBJECTS }) },
  ];
  return {
    describe: `NATS ${servers}${prefix ? ` (prefix ${prefix})` : ''}: streams ${queues.map((x) => `${prefix}${x.where}_DLQ`).join(', ')}`,
    async list() {
      const rows = await Promise.all(
        queues.map(async ({ where, q }) =>
          (await q.deadLetters(10_000)).map((d) => ({
            where,
            id: d.id,
            subject: d.subject,
            at: d.at,
            reason: d.reason,
            deliveryCount: d.deliveryCount,
            durable: d.durable,
          })),
        ),
      );
      return rows.flat().sort((a, b) => a.at.localeCompare(b.at));
    },
    async replay(id) {
      for (const { q } of queues) if (await q.replayDeadLetter(id)) return true;
      return false;
    },
    close: () => m.close(),
  };
}
