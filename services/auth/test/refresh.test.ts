import request from 'supertest';
import { ADMIN, code, cookiesOf, harness, setCookieHeaders, testClock, type Harness } from './helpers';

let h: Harness;
const clock = testClock();
beforeAll(async () => {
  h = await harness({ SESSION_MAX_LIFETIME: '20d' }, { clock });
});
afterAll(() => h.close());

const login = async (mode = 'json') => request(h.app).post('/auth/login').send({ email: ADMIN.email, password: ADMIN.password, mode });
const refresh = (body: object, cookie?: string) => {
  const r = request(h.app).post('/auth/refresh');
  if (cookie) r.set('Cookie', cookie);
  return r.send(body);
};

describe('POST /auth/refresh', () => {
  it('json: rotates the refresh token; the old one converges within the window', async () => {
    const first = (await login()).body.data.refresh_token;
    const r = await refresh({ refresh_token: first });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body.data).sort()).toEqual(['access_token', 'expires', 'refresh_token']);
    expect(r.body.data.expires).toBe(900000);
    expect(r.body.data.refresh_token).not.toBe(first);
    expect(setCookieHeaders(r)).toEqual([]);
  });

  it('defaults to json with a body token and to cookie without; session mode reads the session cookie', async () => {
    const cookieLogin = await login('cookie');
    const rt = cookiesOf(cookieLogin).vellum_refresh_token;
    const viaCookie = await refresh({}, `vellum_refresh_token=${rt}`);
    expect(viaCookie.status).toBe(200);
    expect(Object.keys(viaCookie.body.data).sort()).toEqual(['access_token', 'expires']);
    expect(setCookieHeaders(viaCookie)[0]).toMatch(/^vellum_refresh_token=[A-Za-z0-9_-]{43}; Max-Age=\d+; Path=\/; HttpOnly; SameSite=Lax$/);

    const sessionLogin = await login('session');
    const st = cookiesOf(sessionLogin).vellum_session_token;
    const viaSession = await refresh({ mode: 'session' }, `vellum_session_token=${st}`);
    expect(viaSession.body).toEqual({ data: { expires: 86400000 } });
    const next = cookiesOf(viaSession).vellum_session_token;
    expect(next).toBeDefined();
    expect(next).not.toBe(st);
    // the rotated session cookie no longer authenticates, the new one does
    expect((await request(h.app).get('/users/me').set('Cookie', `vellum_session_token=${st}`)).status).toBe(401);
    expect((await request(h.app).get('/users/me').set('Cookie', `vellum_session_token=${next}`)).status).toBe(200);
  });

  it('without any token → 400 INVALID_PAYLOAD; unknown token → 401; bad mode → 400', async () => {
    const none = await refresh({});
    expect(none.status).toBe(400);
    expect(none.body.errors[0].extensions).toEqual({ code: 'INVALID_PAYLOAD', reason: 'The refresh token is required in either the payload or cookie' });
    expect(code(await refresh({ refresh_token: 'nope' }))).toBe('INVALID_CREDENTIALS');
    expect(code(await refresh({ refresh_token: 'x', mode: 'magic' }))).toBe('INVALID_PAYLOAD');
  });

  it('two concurrent refreshes with one token both succeed with the same successor', async () => {
    const t = (await login()).body.data.refresh_token;
    const [a, b] = await Promise.all([refresh({ refresh_token: t }), refresh({ refresh_token: t })]);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(a.body.data.refresh_token).toBe(b.body.data.refresh_token);
    // and the successor works (once)
    expect((await refresh({ refresh_token: a.body.data.refresh_token })).status).toBe(200);
  });

  it('converges in session mode too', async () => {
    const st = cookiesOf(await login('session')).vellum_session_token;
    const [a, b] = await Promise.all([refresh({ mode: 'session' }, `vellum_session_token=${st}`), refresh({ mode: 'session' }, `vellum_session_token=${st}`)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const sa = JSON.parse(Buffer.from(cookiesOf(a).vellum_session_token.split('.')[1], 'base64url').toString()).session;
    const sb = JSON.parse(Buffer.from(cookiesOf(b).vellum_session_token.split('.')[1], 'base64url').toString()).session;
    expect(sa).toBe(sb);
  });

  it('a reuse after the interval revokes the whole family (the successor dies too) and is audited', async () => {
    const t0 = (await login()).body.data.refresh_token;
    const t1 = (await refresh({ refresh_token: t0 })).body.data.refresh_token;
    clock.advance(10_001);
    const reuse = await refresh({ refresh_token: t0 });
    expect(reuse.status).toBe(401);
    expect(code(reuse)).toBe('INVALID_CREDENTIALS');
    expect(code(await refresh({ refresh_token: t1 }))).toBe('INVALID_CREDENTIALS');
    const audits = await h.sql(`SELECT 1 FROM outbox WHERE subject = 'items.vellum_users.refresh_reuse'`);
    expect(audits.length).toBeGreaterThan(0);
  });

  it('a reuse of an older (not the immediate) predecessor revokes the family even within the interval', async () => {
    const t0 = (await login()).body.data.refresh_token;
    const t1 = (await refresh({ refresh_token: t0 })).body.data.refresh_token;
    const t2 = (await refresh({ refresh_token: t1 })).body.data.refresh_token;
    expect(code(await refresh({ refresh_token: t0 }))).toBe('INVALID_CREDENTIALS');
    expect(code(await refresh({ refresh_token: t2 }))).toBe('INVALID_CREDENTIALS');
  });

  it('an expired refresh token fails; refreshing never extends past SESSION_MAX_LIFETIME', async () => {
    const t = (await login()).body.data.refresh_token;
    clock.advance(7 * 86_400_000 + 1000);
    expect(code(await refresh({ refresh_token: t }))).toBe('INVALID_CREDENTIALS');

    let token = (await login('cookie')).headers['set-cookie'] as unknown as string[];
    let rt = token[0].split(';')[0].split('=')[1];
    const maxAges: number[] = [];
    for (let day = 0; day < 3; day++) {
      clock.advance(6 * 86_400_000); // 0, 6, 12, 18 days after login
      const r = await refresh({}, `vellum_refresh_token=${rt}`);
      expect(r.status).toBe(200);
      token = r.headers['set-cookie'] as unknown as string[];
      rt = token[0].split(';')[0].split('=')[1];
      maxAges.push(Number(/Max-Age=(\d+)/.exec(token[0])![1]));
    }
    // at 18 days the 20-day cap leaves 2 days, not 7
    expect(maxAges[2]).toBe(2 * 86_400);
    clock.advance(2 * 86_400_000 + 1000);
    expect(code(await refresh({}, `vellum_refresh_token=${rt}`))).toBe('INVALID_CREDENTIALS');
  });

  it('a suspended user whose session still exists gets USER_SUSPENDED and the session is deleted', async () => {
    const admin = (await login()).body.data.access_token;
    const u = await request(h.app).post('/users').set('Authorization', `Bearer ${admin}`).send({ email: 'sus@x.io', password: 'sus-password' });
    const t = (await request(h.app).post('/auth/login').send({ email: 'sus@x.io', password: 'sus-password' })).body.data.refresh_token;
    await h.sql(`UPDATE users SET status = 'suspended' WHERE id = $1`, [u.body.data.id]);
    const r = await refresh({ refresh_token: t });
    expect(r.status).toBe(401);
    expect(code(r)).toBe('USER_SUSPENDED');
    expect(code(await refresh({ refresh_token: t }))).toBe('INVALID_CREDENTIALS');
    // suspending through the API revokes all sessions at once
    await h.sql(`UPDATE users SET status = 'active' WHERE id = $1`, [u.body.data.id]);
    const t2 = (await request(h.app).post('/auth/login').send({ email: 'sus@x.io', password: 'sus-password' })).body.data.refresh_token;
    await request(h.app).patch(`/users/${u.body.data.id}`).set('Authorization', `Bearer ${admin}`).send({ status: 'suspended' }).expect(200);
    expect(code(await refresh({ refresh_token: t2 }))).toBe('INVALID_CREDENTIALS');
  });

  it('cookie-mode refresh and logout refuse cross-site requests', async () => {
    const rt = cookiesOf(await login('cookie')).vellum_refresh_token;
    const a = await request(h.app).post('/auth/refresh').set('Cookie', `vellum_refresh_token=${rt}`).set('Origin', 'https://evil.example').send({});
    expect(a.status).toBe(403);
    expect(code(a)).toBe('FORBIDDEN');
    const b = await request(h.app).post('/auth/logout').set('Cookie', `vellum_refresh_token=${rt}`).set('Sec-Fetch-Site', 'cross-site').send({});
    expect(code(b)).toBe('FORBIDDEN');
    const ok = await request(h.app).post('/auth/refresh').set('Cookie', `vellum_refresh_token=${rt}`).set('Origin', 'http://vellum.local:8055').send({});
    expect(ok.status).toBe(200);
  });
});

describe('POST /auth/logout', () => {
  it('204; the refresh token then fails with 401; unknown token is not an error', async () => {
    const t = (await login()).body.data.refresh_token;
    const r = await request(h.app).post('/auth/logout').send({ refresh_token: t });
    expect(r.status).toBe(204);
    expect(r.text).toBe('');
    expect(code(await refresh({ refresh_token: t }))).toBe('INVALID_CREDENTIALS');
    expect((await request(h.app).post('/auth/logout').send({ refresh_token: 'unknown' })).status).toBe(204);
    expect(code(await request(h.app).post('/auth/logout').send({}))).toBe('INVALID_PAYLOAD');
  });

  it('session mode: the session cookie is rejected right after logout, cleared, and its id is revoked for every service', async () => {
    const st = cookiesOf(await login('session')).vellum_session_token;
    expect((await request(h.app).get('/users/me').set('Cookie', `vellum_session_token=${st}`)).status).toBe(200);
    const out = await request(h.app).post('/auth/logout').set('Cookie', `vellum_session_token=${st}`).send({ mode: 'session' });
    expect(out.status).toBe(204);
    expect(setCookieHeaders(out)[0]).toMatch(/^vellum_session_token=; Max-Age=0; Path=\/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax$/);
    const me = await request(h.app).get('/users/me').set('Cookie', `vellum_session_token=${st}`);
    expect(me.status).toBe(401);
    expect(code(me)).toBe('TOKEN_EXPIRED');
    const sid = JSON.parse(Buffer.from(st.split('.')[1], 'base64url').toString()).session;
    const kv = await h.sql(`SELECT 1 FROM outbox WHERE destination = 'vellum_revoked_sessions' AND subject = $1`, [sid]);
    expect(kv).toHaveLength(1);
    expect(code(await refresh({ mode: 'session' }, `vellum_session_token=${st}`))).toBe('INVALID_CREDENTIALS');
  });

  it('cookie mode: clears the refresh cookie', async () => {
    const rt = cookiesOf(await login('cookie')).vellum_refresh_token;
    const out = await request(h.app).post('/auth/logout').set('Cookie', `vellum_refresh_token=${rt}`).send({});
    expect(out.status).toBe(204);
    expect(setCookieHeaders(out)[0]).toMatch(/^vellum_refresh_token=; Max-Age=0;/);
    expect(code(await refresh({}, `vellum_refresh_token=${rt}`))).toBe('INVALID_CREDENTIALS');
  });
});
