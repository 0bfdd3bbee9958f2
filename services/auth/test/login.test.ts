import request from 'supertest';
import jwt from 'jsonwebtoken';
import { createTokenVerifier, staticKeySource } from '@vellum/tokens';
import { ADMIN, code, cookiesOf, harness, modeCookies, setCookieHeaders, testClock, type Harness } from './helpers';

let h: Harness;
const clock = testClock();
beforeAll(async () => {
  h = await harness({}, { clock });
});
afterAll(() => h.close());

const login = (body: object) => request(h.app).post('/auth/login').send(body);

describe('POST /auth/login', () => {
  it('json mode: exact body; the access token verifies with the JWKS and carries the contract claims', async () => {
    const r = await login({ email: ADMIN.email, password: ADMIN.password });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body.data).sort()).toEqual(['access_token', 'expires', 'refresh_token']);
    expect(r.body.data.expires).toBe(900000);
    expect(r.body.data.refresh_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(modeCookies(r)).toEqual([]);
    // every mode: the device cookie (a client that keeps cookies is a trusted device from now on)
    expect(setCookieHeaders(r)).toEqual([
      expect.stringMatching(/^vellum_device=v1\.[0-9a-f-]{36}\.[0-9a-f-]{36}\.[\w-]+\.[\w-]+; Max-Age=31536000; Path=\/; HttpOnly; SameSite=Lax$/),
    ]);
    const jwks = await request(h.app).get('/auth/.well-known/jwks.json');
    expect(jwks.status).toBe(200);
    expect(jwks.body.keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
    expect(jwks.body.keys[0].d).toBeUndefined();
    const header = jwt.decode(r.body.data.access_token, { complete: true })!.header;
    expect(header).toMatchObject({ alg: 'ES256', kid: jwks.body.keys[0].kid });
    const claims = await createTokenVerifier(staticKeySource(jwks.body)).verify(r.body.data.access_token);
    expect(claims).toMatchObject({ iss: 'vellum', admin_access: true, app_access: true });
    expect(claims.exp - claims.iat).toBe(900);
    expect(claims.session).toBeUndefined();
  });

  it('cookie mode: access token in the body, refresh token in an HttpOnly SameSite=Lax cookie with Max-Age', async () => {
    const r = await login({ email: ADMIN.email.toUpperCase(), password: ADMIN.password, mode: 'cookie' });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body.data).sort()).toEqual(['access_token', 'expires']);
    expect(r.body.data.expires).toBe(900000);
    const [c] = setCookieHeaders(r);
    expect(c).toMatch(/^vellum_refresh_token=[A-Za-z0-9_-]{43}; Max-Age=604800; Path=\/; HttpOnly; SameSite=Lax$/);
  });

  it('session mode: only expires in the body; the session cookie is a JWT with a session claim', async () => {
    const r = await login({ email: ADMIN.email, password: ADMIN.password, mode: 'session' });
    expect(r.body).toEqual({ data: { expires: 86400000 } });
    const [c] = setCookieHeaders(r);
    expect(c).toMatch(/^vellum_session_token=[^;]+; Max-Age=86400; Path=\/; HttpOnly; SameSite=Lax$/);
    const token = cookiesOf(r).vellum_session_token;
    const claims = jwt.decode(token) as Record<string, unknown>;
    expect(claims.session).toMatch(/^[0-9a-f-]{36}$/);
    expect((claims.exp as number) - (claims.iat as number)).toBe(86400);
    // the session cookie authenticates
    const me = await request(h.app).get('/users/me').set('Cookie', `vellum_session_token=${token}`);
    expect(me.status).toBe(200);
    expect(me.body.data.email).toBe(ADMIN.email);
    expect(me.body.data.password).toBe('**********');
  });

  it('sets Secure when PUBLIC_URL is https', async () => {
    const s = await harness({ PUBLIC_URL: 'https://cms.example.com' });
    try {
      const r = await request(s.app).post('/auth/login').send({ email: ADMIN.email, password: ADMIN.password, mode: 'cookie' });
      expect(setCookieHeaders(r)[0]).toMatch(/; Secure/);
    } finally {
      await s.close();
    }
  });

  it('validates the payload in the order email, password, mode, otp', async () => {
    const cases: [object, RegExp][] = [
      [{}, /"email" is required/],
      [{ email: 'not-an-address', password: 1, mode: 'x' }, /"email" must be a valid email/],
      [{ email: 'a@b.local' }, /"password" is required/],
      [{ email: 'a@localhost', password: 5 }, /"password" must be a string/],
      [{ email: 'a@b.co', password: 'x', mode: 'bearer', otp: 1 }, /"mode" must be one of/],
      [{ email: 'a@b.co', password: 'x', otp: 123 }, /"otp" must be a string/],
    ];
    for (const [body, reason] of cases) {
      const r = await login(body);
      expect(r.status).toBe(400);
      expect(code(r)).toBe('INVALID_PAYLOAD');
      expect(r.body.errors[0].extensions.reason).toMatch(reason);
    }
  });

  it('answers unknown e-mail, wrong password, inactive user and another provider identically', async () => {
    await h.sql(
      `INSERT INTO users (id, email, password, status) VALUES (gen_random_uuid(), 'sus@x.io', (SELECT password FROM users WHERE email = $1), 'suspended')`,
      [ADMIN.email],
    );
    await h.sql(
      `INSERT INTO users (id, email, password, provider) VALUES (gen_random_uuid(), 'sso@x.io', (SELECT password FROM users WHERE email = $1), 'github')`,
      [ADMIN.email],
    );
    const bodies = [];
    for (const b of [
      { email: 'nobody@x.io', password: ADMIN.password },
      { email: 'sus@x.io', password: 'wrong-password' },
      { email: 'sus@x.io', password: ADMIN.password },
      { email: 'sso@x.io', password: ADMIN.password },
    ]) {
      const r = await login(b);
      expect(r.status).toBe(401);
      bodies.push(r.body);
    }
    for (const b of bodies) expect(b).toEqual({ errors: [{ message: 'Invalid user credentials.', extensions: { code: 'INVALID_CREDENTIALS' } }] });
  });

  it("puts the role's flags into the token: none without a role, the role's own with one", async () => {
    const [role] = await h.sql<{ id: string }>(
      `INSERT INTO roles (id, name, admin_access, app_access, enforce_tfa) VALUES (gen_random_uuid(), 'Editors', false, true, true) RETURNING id`,
    );
    for (const [email, roleId] of [
      ['norole@x.io', null],
      ['editor@x.io', role!.id],
    ] as const)
      await h.sql(`INSERT INTO users (id, email, password, role_id) VALUES (gen_random_uuid(), $2, (SELECT password FROM users WHERE email = $1), $3)`, [
        ADMIN.email,
        email,
        roleId,
      ]);
    const claims = async (email: string) => jwt.decode((await login({ email, password: ADMIN.password })).body.data.access_token) as Record<string, unknown>;
    const none = await claims('norole@x.io');
    expect(none).toMatchObject({ role: null, app_access: false, admin_access: false });
    expect(none.enforce_tfa).toBeUndefined();
    expect(await claims('EDITOR@x.io')).toMatchObject({ role: role!.id, app_access: true, admin_access: false, enforce_tfa: true });
  });

  it('asks a TFA user for an otp (INVALID_OTP only after the password matched)', async () => {
    await h.sql(
      `INSERT INTO users (id, email, password, tfa_secret) VALUES (gen_random_uuid(), 'tfa@x.io', (SELECT password FROM users WHERE email = $1), 'enc:xyz')`,
      [ADMIN.email],
    );
    expect(code(await login({ email: 'tfa@x.io', password: 'wrong-password' }))).toBe('INVALID_CREDENTIALS');
    expect(code(await login({ email: 'tfa@x.io', password: ADMIN.password }))).toBe('INVALID_OTP');
  });

  it('rehashes on login when the argon2 parameters changed', async () => {
    const stronger = await harness({ ARGON2_MEMORY_KIB: '20480', ARGON2_ITERATIONS: '3' });
    try {
      // copy the admin hash made with the default parameters into the new database
      const [{ password }] = await h.sql<{ password: string }>(`SELECT password FROM users WHERE email = $1`, [ADMIN.email]);
      expect(password).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
      await stronger.sql(`UPDATE users SET password = $1 WHERE email = $2`, [password, ADMIN.email]);
      await request(stronger.app).post('/auth/login').send({ email: ADMIN.email, password: ADMIN.password }).expect(200);
      const [after] = await stronger.sql<{ password: string }>(`SELECT password FROM users WHERE email = $1`, [ADMIN.email]);
      expect(after.password).toMatch(/^\$argon2id\$v=19\$m=20480,t=3,p=1\$/);
      await request(stronger.app).post('/auth/login').send({ email: ADMIN.email, password: ADMIN.password }).expect(200);
    } finally {
      await stronger.close();
    }
  });

  it('writes login and login_failed audit events into the outbox (a known account’s under vellum_devices: user and bucket)', async () => {
    await login({ email: 'nobody@x.io', password: 'wrong-password' });
    await login({ email: ADMIN.email, password: 'wrong-password' });
    const rows = await h.sql<{ subject: string; payload: Record<string, unknown> }>(
      `SELECT subject, payload FROM outbox WHERE subject IN ('items.vellum_users.login', 'items.vellum_users.login_failed', 'items.vellum_devices.login_failed') ORDER BY seq`,
    );
    expect(rows.some((r) => r.subject === 'items.vellum_users.login')).toBe(true);
    const unknown = rows.find((r) => r.subject === 'items.vellum_users.login_failed')!;
    expect(unknown.payload).toMatchObject({ v: 1, kind: 'audit', action: 'login_failed', collection: 'vellum_users', item: null });
    const [{ id }] = await h.sql<{ id: string }>(`SELECT id FROM users WHERE email = $1`, [ADMIN.email]);
    const known = rows.find((r) => r.subject === 'items.vellum_devices.login_failed' && r.payload.item === `${id}:untrusted`)!;
    expect(known.payload).toMatchObject({
      action: 'login_failed',
      collection: 'vellum_devices',
      item: `${id}:untrusted`,
      actor: { user: null, ip: expect.any(String) },
    });
  });
});

describe('rate limiting and stall time', () => {
  it('limits /auth/* per IP with 429 REQUESTS_EXCEEDED and Retry-After', async () => {
    const s = await harness({ RATE_LIMITER_ENABLED: 'true', RATE_LIMITER_POINTS: '3', RATE_LIMITER_DURATION: '10s' });
    try {
      for (let i = 0; i < 3; i++) expect((await request(s.app).post('/auth/login').send({})).status).toBe(400);
      const r = await request(s.app).post('/auth/login').send({});
      expect(r.status).toBe(429);
      expect(code(r)).toBe('REQUESTS_EXCEEDED');
      expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(r.body.errors[0].extensions).toMatchObject({ limit: 3, reset: expect.any(String) });
      // other routes are not limited here
      expect((await request(s.app).get('/server/ping')).status).toBe(200);
    } finally {
      await s.close();
    }
  });

  it('every login outcome takes at least LOGIN_STALL_TIME', async () => {
    const s = await harness({ LOGIN_STALL_TIME: '300' });
    try {
      for (const b of [
        { email: 'x@y.io', password: 'p' },
        { email: ADMIN.email, password: 'nope' },
        { email: ADMIN.email, password: ADMIN.password },
      ]) {
        const t = Date.now();
        await request(s.app).post('/auth/login').send(b);
        expect(Date.now() - t).toBeGreaterThanOrEqual(295);
      }
    } finally {
      await s.close();
    }
  });
});
