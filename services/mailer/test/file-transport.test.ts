import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { createInProcessMessaging } from '@vellum/messaging';
import { startMailer } from '../src/start';
import { job, memoryLogger, publish, testConfig } from './support/harness';
import { eventually } from './support/smtp-sink';

describe('mailer without a mail server (file transport, embedded topology)', () => {
  it('writes each message as <job id>.eml and logs the link', async () => {
    const dir = path.join(mkdtempSync(path.join(os.tmpdir(), 'mail-')), 'data', 'mail');
    const messaging = createInProcessMessaging();
    const { logger, lines } = memoryLogger();
    const config = testConfig({ EMAIL_FILE_DIR: dir });
    expect(config.EMAIL_TRANSPORT).toBe('file');
    const m = await startMailer(config, { logger, messaging });
    try {
      const j = job({ data: { url: 'https://app.example.com/admin/reset-password?token=eyJ.abc.def' } });
      await publish(messaging, j);
      const file = path.join(dir, `${j.id}.eml`);
      await eventually(() => existsSync(file));
      expect(readdirSync(dir)).toEqual([`${j.id}.eml`]); // no temp file left behind
      const parsed = await simpleParser(readFileSync(file));
      expect(parsed.subject).toBe('Reset your password for Vellum Test');
      expect(String(parsed.html)).toContain('href="https://app.example.com/admin/reset-password?token=eyJ.abc.def"');
      expect(String(parsed.text)).toContain('https://app.example.com/admin/reset-password?token=eyJ.abc.def');
      expect((parsed.to as { text: string }).text).toBe(j.to);
      const logged = await eventually(() => lines().find((l) => l.link === j.data.url));
      expect(String(logged.msg)).toContain(j.data.url);
      expect(logged.file).toBe(file);
      expect(m.metrics.get('mails_sent_total', 'password-reset')).toBe(1);
    } finally {
      await m.stop();
      await messaging.close();
    }
  });

  it('uses EMAIL_TEMPLATES_PATH overrides, and refuses to start with a broken one', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'mail-'));
    const templates = path.join(root, 'templates');
    const dir = path.join(root, 'out');
    mkdirSync(templates);
    writeFileSync(path.join(templates, 'user-invitation.subject.txt'), 'Join {{project}} now');
    writeFileSync(path.join(templates, 'user-invitation.txt'), 'Go to {{url}}\n');
    const messaging = createInProcessMessaging();
    const m = await startMailer(testConfig({ EMAIL_FILE_DIR: dir, EMAIL_TEMPLATES_PATH: templates }), {
      logger: memoryLogger().logger,
      messaging,
    });
    try {
      const j = job({ template: 'user-invitation', data: { url: 'https://app.example.com/accept?token=1' } });
      await publish(messaging, j);
      const file = path.join(dir, `${j.id}.eml`);
      await eventually(() => existsSync(file));
      const parsed = await simpleParser(readFileSync(file));
      expect(parsed.subject).toBe('Join Vellum Test now');
      expect(parsed.text?.trim()).toBe('Go to https://app.example.com/accept?token=1');
      expect(String(parsed.html)).toContain('Accept the invitation'); // built-in HTML part
    } finally {
      await m.stop();
    }
    writeFileSync(path.join(templates, 'password-reset.html'), '{{token}}');
    await expect(
      startMailer(testConfig({ EMAIL_FILE_DIR: dir, EMAIL_TEMPLATES_PATH: templates }), { logger: memoryLogger().logger, messaging }),
    ).rejects.toThrow(/unknown placeholder \{\{token\}\}/);
    await messaging.close();
  });
});
