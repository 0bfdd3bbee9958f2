import request from 'supertest';
import { mailJobSchema, type MailJob } from '@vellum/contracts';
import { code, adminHarness, testClock, type Harness } from './helpers';

let h: Harness;
let admin: string;
let roleId: string;
const clock = testClock();
beforeAll(async () => {
  ({ h, admin } = await adminHarness({ USER_INVITE_URL_ALLOW_LIST: 'https://app.example.com/invite', PROJECT_NAME: 'Acme' }, { clock }));
  roleId = (await request(h.app).post('/roles').set('Authorization', `Bearer ${admin}`).send({ name: 'Writer' })).body.data.id;
});
afterAll(() => h.close());

const invite = (b: object, token = admin) => request(h.app).post('/users/invite').set('Authorization', `Bearer ${token}`).send(b);
const accept = (b: object) => request(h.app).post('/users/invite/accept').send(b);
const mailJobs = async (to: string) =>
  (await h.sql<{ payload: MailJob }>(`SELECT payload FROM outbox WHERE destination = 'MAIL' AND payload->>'to' = $1 ORDER BY seq`, [to])).map((r) =>
    mailJobSchema.parse(r.payload),
  );
const tokenOf = (job: MailJob) => new URL(job.data.url).searchParams.get('token')!;

describe('invitations', () => {
  it('invite → invited user + mail job in the outbox → accept → login works; the token works once', async () => {
    const r = await invite({ email: 'new@x.io', role: roleId });
    expect(r.status).toBe(204);
    const [user] = await h.sql<{ id: string; status: string; password: string | null; role_id: string }>(
      `SELECT id, status, password, role_id FROM users WHERE email = 'new@x.io'`,
    );
    expect(user).toMatchObject({ status: 'invited', password: null, role_id: roleId });
    const [job] = await mailJobs('new@x.io');
    expect(job).toMatchObject({ template: 'user-invitation', to: 'new@x.io', data: { project: 'Acme' } });
    expect(job.data.url).toMatch(/^http:\/\/vellum\.local:8055\/admin\/accept-invite\?token=/);
    // the user's creation event and the mail job were committed together
    expect(await h.sql(`SELECT 1 FROM outbox WHERE subject = 'items.vellum_users.create' AND payload->>'item' = $1`, [user.id])).toHaveLength(1);

    // an invited user cannot log in
    expect(code(await request(h.app).post('/auth/login').send({ email: 'new@x.io', password: 'anything-at-all' }))).toBe('INVALID_CREDENTIALS');
    expect(code(await accept({ token: tokenOf(job), password: 'short' }))).toBe('FAILED_VALIDATION');
    expect((await accept({ token: tokenOf(job), password: 'new-user-password' })).status).toBe(204);
    expect((await h.sql(`SELECT status FROM users WHERE id = $1`, [user.id]))[0]).toEqual({ status: 'active' });
    const login = await request(h.app).post('/auth/login').send({ email: 'new@x.io', password: 'new-user-password' });
    expect(login.status).toBe(200);

    const again = await accept({ token: tokenOf(job), password: 'another-password' });
    expect(again.status).toBe(403);
    expect(code(again)).toBe('FORBIDDEN');
    expect((await request(h.app).post('/auth/login').send({ email: 'new@x.io', password: 'new-user-password' })).status).toBe(200);
  });

  it('parallel accepts of one token: exactly one succeeds', async () => {
    await invite({ email: 'race@x.io', role: roleId });
    const token = tokenOf((await mailJobs('race@x.io'))[0]);
    const results = await Promise.all(['pass-one-aaaa', 'pass-two-bbbb', 'pass-three-cc'].map((password) => accept({ token, password })));
    expect(results.map((r) => r.status).sort()).toEqual([204, 403, 403]);
  });

  it('re-inviting an invited user sends a fresh link; an active user is not re-invited', async () => {
    await invite({ email: 'twice@x.io', role: roleId });
    clock.advance(1000);
    await invite({ email: 'TWICE@x.io', role: roleId });
    const jobs = await mailJobs('twice@x.io');
    expect(jobs).toHaveLength(2);
    expect(tokenOf(jobs[1])).not.toBe(tokenOf(jobs[0]));
    expect(await h.sql(`SELECT 1 FROM users WHERE lower(email) = 'twice@x.io'`)).toHaveLength(1);
    expect((await accept({ token: tokenOf(jobs[1]), password: 'twice-password' })).status).toBe(204);
    expect(code(await accept({ token: tokenOf(jobs[0]), password: 'twice-password-2' }))).toBe('FORBIDDEN');
    await invite({ email: 'twice@x.io', role: roleId });
    expect(await mailJobs('twice@x.io')).toHaveLength(2);
  });

  it('invite_url must be in USER_INVITE_URL_ALLOW_LIST; the link then points there', async () => {
    const bad = await invite({ email: 'url@x.io', role: roleId, invite_url: 'https://evil.example.com/invite' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].extensions).toEqual({ code: 'INVALID_PAYLOAD', reason: 'URL "https://evil.example.com/invite" can\'t be used to invite users' });
    expect(await h.sql(`SELECT 1 FROM users WHERE email = 'url@x.io'`)).toHaveLength(0);
    expect((await invite({ email: 'url@x.io', role: roleId, invite_url: 'https://app.example.com/invite?lang=de' })).status).toBe(204);
    expect((await mailJobs('url@x.io'))[0].data.url).toMatch(/^https:\/\/app\.example\.com\/invite\?lang=de&token=/);
  });

  it('admin only; payload checked; expired / forged / wrong-scope tokens refused', async () => {
    const userToken = (await request(h.app).post('/auth/login').send({ email: 'new@x.io', password: 'new-user-password' })).body.data.access_token;
    expect(code(await invite({ email: 'x@x.io', role: roleId }, userToken))).toBe('FORBIDDEN');
    expect((await request(h.app).post('/users/invite').send({ email: 'x@x.io', role: roleId })).status).toBe(403);
    expect(code(await invite({ role: roleId }))).toBe('INVALID_PAYLOAD');
    expect(code(await invite({ email: 'not-an-email', role: roleId }))).toBe('INVALID_PAYLOAD');
    expect(code(await invite({ email: 'x@x.io' }))).toBe('INVALID_PAYLOAD');
    expect(code(await invite({ email: 'x@x.io', role: '00000000-0000-4000-8000-000000000000' }))).toBe('INVALID_PAYLOAD');

    await invite({ email: 'late@x.io', role: roleId });
    const token = tokenOf((await mailJobs('late@x.io'))[0]);
    clock.advance(7 * 86_400_000 + 1000);
    const expired = await accept({ token, password: 'late-password' });
    expect(expired.status).toBe(401);
    expect(code(expired)).toBe('TOKEN_EXPIRED');
    expect(code(await accept({ token: 'garbage', password: 'late-password' }))).toBe('INVALID_TOKEN');
    const fresh = (await request(h.app).post('/auth/login').send({ email: 'new@x.io', password: 'new-user-password' })).body.data.access_token;
    expect(code(await accept({ token: fresh, password: 'late-password' }))).toBe('FORBIDDEN'); // an access token: wrong scope
    expect(code(await accept({ token }))).toBe('INVALID_PAYLOAD');
  });
});
