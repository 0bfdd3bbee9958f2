import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadMailerConfig, loadNatsSettings, retryHorizonMs } from './config';

describe('loadMailerConfig', () => {
  it('defaults to the file transport under ./data/mail without SMTP settings', () => {
    const c = loadMailerConfig({});
    expect(c.EMAIL_TRANSPORT).toBe('file');
    expect(c.EMAIL_FILE_DIR).toBe('./data/mail');
    expect(c.EMAIL_FROM).toBe('no-reply@example.com');
    expect(c.PROJECT_NAME).toBe('Vellum');
    expect(c.EMAIL_RETRY_BACKOFF).toEqual([1000, 5000, 30_000, 120_000, 300_000]);
    expect(c.EMAIL_MAX_ATTEMPTS).toBe(8);
    expect(c.EMAIL_SENT_IDS_TTL).toBe(7 * 24 * 3600_000);
    expect(c.EMAIL_SMTP_POOL).toBe(true);
    expect(c.HOST).toBe('127.0.0.1');
    expect(c.PORT).toBe(0);
  });

  it('chooses SMTP when a host is set, reads the password from a file', () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'cfg-')), 'pw');
    writeFileSync(file, 's3cret\n');
    const c = loadMailerConfig({
      EMAIL_SMTP_HOST: 'smtp.example.com',
      EMAIL_SMTP_PORT: '2525',
      EMAIL_SMTP_USER: 'u',
      EMAIL_SMTP_PASSWORD_FILE: file,
      EMAIL_SMTP_SECURE: 'true',
      EMAIL_SMTP_IGNORE_TLS: 'false',
      EMAIL_SMTP_POOL: 'false',
      EMAIL_RETRY_BACKOFF: '500, 2s,1m',
    });
    expect(c).toMatchObject({
      EMAIL_TRANSPORT: 'smtp',
      EMAIL_SMTP_PORT: 2525,
      EMAIL_SMTP_PASSWORD: 's3cret',
      EMAIL_SMTP_SECURE: true,
      EMAIL_SMTP_POOL: false,
      EMAIL_RETRY_BACKOFF: [500, 2000, 60_000],
    });
  });

  it('reports every problem at once, each naming its variable', () => {
    expect(() => loadMailerConfig({ EMAIL_TRANSPORT: 'smtp', EMAIL_RETRY_BACKOFF: '1s,soon', EMAIL_SMTP_PASSWORD: 'x' })).toThrow(
      /EMAIL_RETRY_BACKOFF: "soon"[\s\S]*EMAIL_SMTP_HOST: is required[\s\S]*EMAIL_SMTP_USER/,
    );
    expect(() => loadMailerConfig({ EMAIL_TRANSPORT: 'sendmail' })).toThrow(/EMAIL_TRANSPORT/);
    expect(() => loadMailerConfig({ EMAIL_MAX_ATTEMPTS: '0' })).toThrow(/EMAIL_MAX_ATTEMPTS/);
  });

  it('keeps sent-job ids longer than a job can be retried', () => {
    // defaults: 8 attempts of 60 s ack wait + 1 s, 5 s, 30 s, 2 m, 5 m, 5 m, 5 m between them = 1,536 s
    expect(retryHorizonMs(8, [1000, 5000, 30_000, 120_000, 300_000], 60_000)).toBe(1_536_000);
    expect(loadMailerConfig({ EMAIL_SENT_IDS_TTL: '1537s' }).EMAIL_SENT_IDS_TTL).toBe(1_537_000);
    expect(() => loadMailerConfig({ EMAIL_SENT_IDS_TTL: '1536s' })).toThrow(/EMAIL_SENT_IDS_TTL: must be longer than a job's retries \(1536 s/);
    expect(() => loadMailerConfig({ EMAIL_SENT_IDS_TTL: 'a week' })).toThrow(/EMAIL_SENT_IDS_TTL/);
  });

  it('reads the NATS settings for main.ts', () => {
    expect(() => loadNatsSettings({})).toThrow(/NATS_URL: is required/);
    expect(loadNatsSettings({ NATS_URL: 'nats://n:4222', NATS_PREFIX: 'p_' })).toEqual({ servers: 'nats://n:4222', prefix: 'p_', name: 'mailer' });
  });
});
