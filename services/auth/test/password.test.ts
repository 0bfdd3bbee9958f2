import request from 'supertest';
import { createInProcessMessaging, type Delivery } from '@vellum/messaging';
import { mailJobSchema, MAIL_QUEUE, MAIL_SUBJECTS, type MailJob } from '@vellum/contracts';
import { startOutboxRelay } from '@vellum/outbox';
import { authOutboxDestinations } from '../src/events/outbox-destinations';
import { ADMIN, code, harness, testClock, type Harness } from './helpers';

let h: Harness;
const clock = testClock();
beforeAll(async () => {
  h = await harness({ PASSWORD_RESET_URL_ALLOW_LIST: 'https://app.example.com/reset,https://other.example.com/r?x=1' }, { clock });
});
afterAll(() => h.close());

const jobs = async () =>
  (await h.sql<{ id: string; payload: MailJob }>(`SELECT id, payload FROM outbox WHERE destination = 'MAIL' ORDER BY seq`)).map((r) => r.payload);
const tokenOf = (job: MailJob) => new URL(job.data.url).searchParams.get('token')!;
const requestReset = (body: object) => request(h.app).post('/auth/password/request').send(body);
const reset = (body: object) => request(h.app).post('/auth/password/reset').send(body);

describe('password reset', () => {
  it('request: 204 for existing and unknown accounts; only the existing one queues a mail job (default link)', async () => {
    const before = (await jobs()).length;
    expect((await requestReset({ email: 'nobody@x.io' })).status).toBe(204);
    expect((await jobs()).length).toBe(before);
    const r = await requestReset({ email: ADMIN.email.toUpperCase() });
    expect(r.status).toBe(204);
    expect(r.text).toBe('');
    const all = await jobs();
    expect(all.length).toBe(before + 1);
    const job = mailJobSchema.parse(all.at(-1));
    expect(job).toMatchObject({ template: 'password-reset', to: ADMIN.email });
    expect(job.data.url).toMatch(/^http:\/\/vellum\.local:8055\/admin\/reset-password\?token=/);
  });

  it('reset_url outside the allow list → 400 before any lookup; allowed by exact match or same origin + path', async () => {
    const bad = await requestReset({ email: 'nobody@x.io', reset_url: 'https://evil.example.com/reset' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toMatchObject({
      extensions: { code: 'INVALID_PAYLOAD', reason: 'URL "https://evil.example.com/reset" can\'t be used to reset passwords' },
    });
    expect(code(await requestReset({ email: 'x@x.io', reset_url: 'https://app.example.com/reset/../admin' }))).toBe('INVALID_PAYLOAD');
    expect((await requestReset({ email: ADMIN.email, reset_url: 'https://app.example.com/reset?lang=de' })).status).toBe(204);
    expect((await jobs()).at(-1)!.data.url).toMatch(/^https:\/\/app\.example\.com\/reset\?lang=de&token=/);
    expect((await requestReset({ email: ADMIN.email, reset_url: 'https://other.example.com/r' })).status).toBe(204);
    expect(code(await requestReset({}))).toBe('INVALID_PAYLOAD');
  });

  it('the token works once; the second use → 403 FORBIDDEN; old refresh tokens are dead afterwards', async () => {
    const refreshToken = (await request(h.app).post('/auth/login').send(ADMIN)).body.data.refresh_token;
    await requestReset({ email: ADMIN.email });
    const token = tokenOf((await jobs()).at(-1)!);
    const weak = await reset({ token, password: 'short' });
    expect(weak.status).toBe(400);
    expect(weak.body.errors[0].extensions).toEqual({ code: 'FAILED_VALIDATION', field: 'password', type: 'min_length' });
    expect(JSON.stringify(weak.body)).not.toMatch(/short/);
    expect((await reset({ token, password: 'brand-new-password' })).status).toBe(204);
    const again = await reset({ token, password: 'another-password' });
    expect(again.status).toBe(403);
    expect(code(again)).toBe('FORBIDDEN');
    expect(code(await request(h.app).post('/auth/refresh').send({ refresh_token: refreshToken }))).toBe('INVALID_CREDENTIALS');
    expect((await request(h.app).post('/auth/login').send({ email: ADMIN.email, password: 'brand-new-password' })).status).toBe(200);
    const events = await h.sql(`SELECT payload FROM outbox WHERE subject = 'items.vellum_users.password_reset'`);
    expect(events).toHaveLength(1);
    // the user-update event carries the password only as "**********"
    const upd = await h.sql<{ payload: { data: Record<string, unknown> } }>(
      `SELECT payload FROM outbox WHERE subject = 'items.vellum_users.update' ORDER BY seq DESC LIMIT 1`,
    );
    expect(upd[0].payload.data.password).toBe('**********');
    await h.sql(`UPDATE users SET password = (SELECT password FROM users WHERE email = $1) WHERE email = $1`, [ADMIN.email]);
  });

  it('expired → 401 TOKEN_EXPIRED; garbage → 403 INVALID_TOKEN; an access token (wrong scope) → 403 FORBIDDEN', async () => {
    await requestReset({ email: ADMIN.email });
    const token = tokenOf((await jobs()).at(-1)!);
    clock.advance(3_600_001);
    const expired = await reset({ token, password: 'whatever-password' });
    expect(expired.status).toBe(401);
    expect(code(expired)).toBe('TOKEN_EXPIRED');
    expect(code(await reset({ token: 'garbage', password: 'whatever-password' }))).toBe('INVALID_TOKEN');
    const access = (await request(h.app).post('/auth/login').send({ email: ADMIN.email, password: 'brand-new-password' })).body.data.access_token;
    expect(code(await reset({ token: access, password: 'whatever-password' }))).toBe('FORBIDDEN');
    expect(code(await reset({ token: 'garbage' }))).toBe('INVALID_PAYLOAD');
  });

  it('a mail job committed with the request is published by the relay after a crash between commit and publish', async () => {
    const published = await h.sql<{ n: number }>(`SELECT count(*)::int AS n FROM outbox WHERE published_at IS NOT NULL`);
    expect(published[0].n).toBe(0); // no relay has run yet: every committed message is waiting
    await requestReset({ email: ADMIN.email });
    const waiting = await h.sql<{ id: string }>(`SELECT id FROM outbox WHERE destination = 'MAIL' ORDER BY seq DESC LIMIT 1`);

    const messaging = createInProcessMessaging();
    const got: Delivery<MailJob>[] = [];
    const queue = await messaging.workQueue(MAIL_QUEUE, { subjects: MAIL_SUBJECTS });
    await queue.consume<MailJob>({ durable: 'mailer', handler: async (d) => void got.push(d) });
    const relay = await startOutboxRelay({ connectionString: h.db.url, messaging, destinations: authOutboxDestinations, pollMs: 60_000 });
    try {
      await relay.idle();
      const end = Date.now() + 5000;
      while (!got.some((d) => d.id === waiting[0].id) && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
      const d = got.find((x) => x.id === waiting[0].id)!;
      expect(d.subject).toBe('mail.send');
      expect(mailJobSchema.parse(d.data).to).toBe(ADMIN.email);
      expect((await h.sql(`SELECT 1 FROM outbox WHERE published_at IS NULL`)).length).toBe(0);
    } finally {
      await relay.stop();
      await messaging.close();
    }
  });
});
