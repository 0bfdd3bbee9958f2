import { randomBytes, randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { MAIL_QUEUE, MAIL_SUBJECT, MAIL_SUBJECTS, type MailJob } from '@vellum/contracts';
import { createLogger, type Logger } from '@vellum/logger';
import { connectNatsMessaging, createInProcessMessaging, type Messaging, type NatsMessaging } from '@vellum/messaging';
import { testNatsUrl } from '@vellum/testing';
import { loadMailerConfig, type MailerConfig } from '../../src/config';

/** A logger whose lines are kept (tests can read them) instead of printed. */
export function memoryLogger(name = 'mailer'): { logger: Logger; lines: () => Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk, _enc, cb) {
      for (const l of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(l));
      cb();
    },
  });
  return { logger: createLogger({ name, level: 'debug', destination }), lines: () => lines };
}

export function testConfig(env: Record<string, string | undefined>): MailerConfig {
  return loadMailerConfig({
    EMAIL_FROM: 'Vellum <no-reply@vellum.test>',
    PROJECT_NAME: 'Vellum Test',
    EMAIL_SMTP_IGNORE_TLS: 'true',
    EMAIL_SMTP_TIMEOUT: '3s',
    EMAIL_SEND_TIMEOUT: '5s',
    EMAIL_RETRY_BACKOFF: '100,200,400,800',
    EMAIL_MAX_ATTEMPTS: '20',
    EMAIL_ACK_WAIT: '10s',
    ...env,
  });
}

export function job(overrides: Partial<MailJob> = {}): MailJob {
  const id = overrides.id ?? randomUUID();
  return {
    v: 1,
    id,
    template: 'password-reset',
    to: `user-${id.slice(0, 8)}@example.com`,
    data: { url: `https://app.example.com/admin/reset-password?token=tok-${id}&x=<b>` },
    created_at: new Date().toISOString(),
    ...overrides,
  };
}

export async function publish(messaging: Messaging, j: unknown, messageId?: string): Promise<void> {
  const q = await messaging.workQueue(MAIL_QUEUE, { subjects: MAIL_SUBJECTS });
  await q.publish(MAIL_SUBJECT, j, { id: messageId ?? (j as { id: string }).id });
}

export async function deadLetters(messaging: Messaging) {
  const q = await messaging.workQueue(MAIL_QUEUE, { subjects: MAIL_SUBJECTS });
  return q.deadLetters(1000);
}

/** One messaging "world" (in-process, or NATS under a fresh prefix); `connect()` gives another member of it. */
export interface Backend {
  name: 'in-process' | 'nats';
  connect(name: string): Promise<Messaging>;
  prefix?: string;
  cleanup(): Promise<void>;
}

export async function createBackend(kind: 'in-process' | 'nats'): Promise<Backend> {
  if (kind === 'in-process') {
    const shared = createInProcessMessaging();
    return { name: kind, connect: async () => shared, cleanup: () => shared.close() };
  }
  const url = testNatsUrl();
  if (!url) throw new Error('no NATS');
  const prefix = `tmail${randomBytes(4).toString('hex')}_`;
  const opened: NatsMessaging[] = [];
  return {
    name: kind,
    prefix,
    connect: async (name) => {
      const m = await connectNatsMessaging({ servers: url, name, prefix });
      opened.push(m);
      return m;
    },
    cleanup: async () => {
      const admin = await connectNatsMessaging({ servers: url, name: 'cleanup', prefix });
      await Promise.allSettled(opened.map((m) => m.close()));
      await admin.destroy().catch(() => undefined);
      await admin.close();
    },
  };
}

/** The backends to run against: in-process always, NATS when a server is available (loud skip otherwise). */
export function backends(): ('in-process' | 'nats')[] {
  if (testNatsUrl()) return ['in-process', 'nats'];
  console.warn('[mailer tests] NATS_URL/TEST_NATS_URL not set: NATS variants are SKIPPED');
  return ['in-process'];
}
