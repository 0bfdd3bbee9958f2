import request from 'supertest';
import { auditEventSchema } from '@vellum/contracts';
import { ADMIN, code, harness, type Harness } from './helpers';

// Issue 14.1: list your sessions (devices), end one, end all others; admins do the same for any user. Ending a
// session kills its refresh token and its access tokens (their `sid` is revoked through the revoked-sessions map).
let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

const device = async (agent: string, email = ADMIN.email, password = ADMIN.password) => {
  const r = await request(h.app).post('/auth/login').set('User-Agent', agent).send({ email, password });
  expect(r.status).toBe(200);
  return r.body.data as { access_token: string; refresh_token: string };
};
const as = (token: string) => ({
  get: (p: string) => request(h.app).get(p).set('Authorization', `Bearer ${token}`),
  del: (p: string) => request(h.app).delete(p).set('Authorization', `Bearer ${token}`),
  post: (p: string, b: object) => request(h.app).post(p).set('Authorization', `Bearer ${token}`).send(b),
});
const sidOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString()).sid as string;
const refresh = (rt: string) => request(h.app).post('/auth/refresh').send({ refresh_token: rt });
const revoked = async (id: string) => (await h.sql(`SELECT 1 FROM outbox WHERE destination = 'vellum_revoked_sessions' AND subject = $1`, [id])).length > 0;

describe('sessions', () => {
  it('lists the live sessions with device details; the id survives a refresh; "current" marks the caller', async () => {
    const laptop = await device('laptop-browser');
    const phone = await device('phone-app');
    const list = await as(laptop.access_token).get('/users/me/sessions');
    expect(list.status).toBe(200);
    const mine = list.body.data.filter((s: { user_agent: string }) => ['laptop-browser', 'phone-app'].includes(s.user_agent));
    expect(mine).toHaveLength(2);
    const laptopSession = mine.find((s: { user_agent: string }) => s.user_agent === 'laptop-browser');
    expect(laptopSession).toMatchObject({ id: sidOf(laptop.access_token), current: true, ip: expect.any(String), origin: null });
    expect(new Date(laptopSession.expires).getTime()).toBeGreaterThan(Date.now());
    expect(mine.find((s: { user_agent: string }) => s.user_agent === 'phone-app').current).toBe(false);

    const r = await refresh(phone.refresh_token);
    expect(r.status).toBe(200);
    expect(sidOf(r.body.data.access_token)).toBe(sidOf(phone.access_token));
    const after = (await as(laptop.access_token).get('/users/me/sessions')).body.data;
    const phoneAfter = after.find((s: { id: string }) => s.id === sidOf(phone.access_token));
    expect(phoneAfter).toBeDefined();
    expect(after.filter((s: { id: string }) => s.id === sidOf(phone.access_token))).toHaveLength(1);
    // the old access token of the refreshed session still works: a refresh does not end the session
    expect((await as(phone.access_token).get('/users/me')).status).toBe(200);
  });

  it('ending one session kills its refresh and access tokens, revokes it for every service, and audits it', async () => {
    const keep = await device('keeper');
    const lost = await device('lost-phone');
    const sid = sidOf(lost.access_token);
    expect((await as(lost.access_token).get('/users/me')).status).toBe(200);
    expect((await as(keep.access_token).del(`/users/me/sessions/${sid}`)).status).toBe(204);

    const me = await as(lost.access_token).get('/users/me');
    expect(me.status).toBe(401);
    expect(code(me)).toBe('TOKEN_EXPIRED');
    expect(code(await refresh(lost.refresh_token))).toBe('INVALID_CREDENTIALS');
    expect((await as(keep.access_token).get('/users/me')).status).toBe(200);
    expect(await revoked(sid)).toBe(true);
    const events = await h.sql<{ payload: unknown }>(
      `SELECT payload FROM outbox WHERE subject = 'items.vellum_sessions.session_ended' AND payload->>'item' = $1`,
      [sid],
    );
    expect(events).toHaveLength(1);
    expect(auditEventSchema.parse(events[0].payload)).toMatchObject({
      action: 'session_ended',
      collection: 'vellum_sessions',
      item: sid,
      actor: { user: expect.any(String) },
    });

    // gone, or not yours: 403 as for a missing item; a malformed id too
    expect(code(await as(keep.access_token).del(`/users/me/sessions/${sid}`))).toBe('FORBIDDEN');
    expect(code(await as(keep.access_token).del('/users/me/sessions/nope'))).toBe('FORBIDDEN');
  });

  it('DELETE /users/me/sessions ends every other session and keeps the current one', async () => {
    const a = await device('a');
    const b = await device('b');
    const c = await device('c');
    expect((await as(a.access_token).del('/users/me/sessions')).status).toBe(204);
    const left = (await as(a.access_token).get('/users/me/sessions')).body.data;
    expect(left.map((s: { id: string; current: boolean }) => [s.id, s.current])).toEqual([[sidOf(a.access_token), true]]);
    for (const t of [b, c]) {
      expect(code(await as(t.access_token).get('/users/me'))).toBe('TOKEN_EXPIRED');
      expect(code(await refresh(t.refresh_token))).toBe('INVALID_CREDENTIALS');
      expect(await revoked(sidOf(t.access_token))).toBe(true);
    }
  });

  it('admins list and end any user’s sessions; others may not, and cannot end someone else’s session', async () => {
    const admin = await device('admin-console');
    const user = await as(admin.access_token).post('/users', { email: 'sess@x.io', password: 'session-user-pw' });
    expect(user.status).toBe(200);
    const uid = user.body.data.id;
    const u1 = await device('u1', 'sess@x.io', 'session-user-pw');
    const u2 = await device('u2', 'sess@x.io', 'session-user-pw');

    expect(code(await as(u1.access_token).get(`/users/${uid}/sessions`))).toBe('FORBIDDEN');
    expect(code(await as(u1.access_token).del(`/users/me/sessions/${sidOf(admin.access_token)}`))).toBe('FORBIDDEN');
    expect((await as(admin.access_token).get('/users/me')).status).toBe(200);

    const list = await as(admin.access_token).get(`/users/${uid}/sessions`);
    expect(list.body.data.map((s: { user_agent: string }) => s.user_agent).sort()).toEqual(['u1', 'u2']);
    expect(list.body.data.every((s: { current: boolean }) => !s.current)).toBe(true);
    expect((await as(admin.access_token).del(`/users/${uid}/sessions/${sidOf(u1.access_token)}`)).status).toBe(204);
    expect(code(await as(u1.access_token).get('/users/me'))).toBe('TOKEN_EXPIRED');
    expect((await as(u2.access_token).get('/users/me')).status).toBe(200);
    expect((await as(admin.access_token).del(`/users/${uid}/sessions`)).status).toBe(204);
    expect(code(await as(u2.access_token).get('/users/me'))).toBe('TOKEN_EXPIRED');
    expect((await as(admin.access_token).get(`/users/${uid}/sessions`)).body.data).toEqual([]);
    expect((await as(admin.access_token).get('/users/me')).status).toBe(200);
  });

  it('logout in json mode revokes the session’s access tokens too', async () => {
    const t = await device('logout-json');
    expect((await request(h.app).post('/auth/logout').send({ refresh_token: t.refresh_token })).status).toBe(204);
    expect(code(await as(t.access_token).get('/users/me'))).toBe('TOKEN_EXPIRED');
    expect(await revoked(sidOf(t.access_token))).toBe(true);
  });
});
