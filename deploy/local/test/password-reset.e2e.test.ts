import request from 'supertest';
import { testNatsUrl } from '@vellum/testing';
import type { SmtpSink } from '../../../services/mailer/test/support/smtp-sink';
import { startTestPlatformWithSmtp, ADMIN, type TestPlatform } from './platform-harness';

// Issue 6's end-to-end point: password request through the gateway → a mail reaches a real SMTP server with
// the reset link → the token resets the password → login with the new password works. Runs on in-process
// messaging, and again on NATS JetStream when a NATS server is available.
describe.each([
  ['in-process messaging', false],
  ['NATS JetStream', true],
])('password reset by mail, end to end (%s)', (_name, useNats) => {
  let p: TestPlatform;
  let smtp: SmtpSink;
  const skip = useNats && !testNatsUrl();
  beforeAll(async () => {
    if (skip) {
      console.warn('!!! NATS end-to-end password reset SKIPPED: no NATS_URL / TEST_NATS_URL');
      return;
    }
    ({ platform: p, smtp } = await startTestPlatformWithSmtp(useNats, {
      EMAIL_FROM: 'vellum@example.com',
      PASSWORD_RESET_URL_ALLOW_LIST: 'https://app.example.com/reset',
    }));
  });
  afterAll(async () => {
    await p?.close();
    await smtp?.stop();
  });

  it('mails a working, single-use reset link', async () => {
    if (skip) return;
    const api = request(p.url);
    const asked = await api.post('/auth/password/request').send({ email: ADMIN.email, reset_url: 'https://app.example.com/reset' });
    expect(asked.status).toBe(204);
    const [mail] = await smtp.waitFor(1, 15_000);
    expect(mail.to).toEqual([ADMIN.email]);
    const text = String(mail.parsed.text);
    const link = text.match(/https:\/\/app\.example\.com\/reset\?token=[^\s"<]+/)?.[0];
    expect(link).toBeTruthy();
    expect(String(mail.parsed.html)).toContain('https://app.example.com/reset?token=');
    const token = new URL(link as string).searchParams.get('token') as string;

    const reset = await api.post('/auth/password/reset').send({ token, password: 'a-brand-new-password' });
    expect(reset.status).toBe(204);
    expect((await api.post('/auth/login').send({ email: ADMIN.email, password: ADMIN.password })).status).toBe(401);
    const login = await api.post('/auth/login').send({ email: ADMIN.email, password: 'a-brand-new-password' });
    expect(login.status).toBe(200);
    expect((await api.post('/auth/password/reset').send({ token, password: 'yet-another-password' })).status).toBe(403);
  });
});
