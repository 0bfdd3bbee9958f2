import request from 'supertest';
import { ITEMS_STREAM } from '@vellum/contracts';
import { freePort, silentLogger } from '@vellum/testing';
import { createApp } from '../src/app';
import { loadAuthConfig } from '../src/config';
import { createPrisma } from '../src/data/prisma';
import { ADMIN, code, harness, type Harness } from './helpers';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

const login = (extra: Record<string, string> = {}) =>
  request(h.app)
    .post('/auth/login')
    .set('X-Request-Id', 'login-writes-test')
    .set('User-Agent', 'jest')
    .send({ ...ADMIN, ...extra });
const adminRow = async () =>
  (
    await h.sql<{ id: string; failed_login_attempts: number; last_access: Date | null }>(
      `SELECT id, failed_login_attempts, last_access FROM users WHERE email = $1`,
      [ADMIN.email],
    )
  )[0];
const count = async (sql: string, values: unknown[] = []) => Number((await h.sql<{ n: string }>(sql, values))[0].n);

describe('the writes of a successful login', () => {
  it('are all or nothing: a failure while writing them (here the outbox insert) leaves no session, no event and the counters as they were; the error answers 503', async () => {
    const user = await adminRow();
    await h.sql(`UPDATE users SET failed_login_attempts = 2, last_access = NULL WHERE id = $1`, [user.id]);
    // A server going down mid-write: the statement fails with PostgreSQL's admin_shutdown (57P01).
    await h.sql(`CREATE FUNCTION fail_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'injected failure' USING ERRCODE = 'admin_shutdown'; END $$`);
    await h.sql(`CREATE TRIGGER fail_outbox BEFORE INSERT ON outbox FOR EACH ROW EXECUTE FUNCTION fail_outbox()`);
    const sessionsBefore = await count(`SELECT count(*) AS n FROM sessions WHERE user_id = $1`, [user.id]);
    const eventsBefore = await count(`SELECT count(*) AS n FROM outbox`);
    try {
      const r = await login();
      expect(r.status).toBe(503);
      expect(r.body.errors[0].extensions).toMatchObject({ code: 'SERVICE_UNAVAILABLE', service: 'database' });
    } finally {
      await h.sql(`DROP TRIGGER fail_outbox ON outbox`);
      await h.sql(`DROP FUNCTION fail_outbox()`);
    }
    expect(await count(`SELECT count(*) AS n FROM sessions WHERE user_id = $1`, [user.id])).toBe(sessionsBefore);
    expect(await count(`SELECT count(*) AS n FROM outbox`)).toBe(eventsBefore);
    expect(await adminRow()).toMatchObject({ failed_login_attempts: 2, last_access: null });

    // the same login once the database is well: everything at once
    const ok = await login({ mode: 'cookie' });
    expect(ok.status).toBe(200);
    expect(await count(`SELECT count(*) AS n FROM sessions WHERE user_id = $1`, [user.id])).toBe(sessionsBefore + 1);
    const after = await adminRow();
    expect(after.failed_login_attempts).toBe(0);
    expect(after.last_access).toBeInstanceOf(Date);
  });

  it('put the login audit event into the outbox in the row shape the relay publishes (id = event id, request id header)', async () => {
    const r = await login();
    expect(r.status).toBe(200);
    const user = await adminRow();
    const [row] = await h.sql<{
      id: string;
      destination: string;
      subject: string;
      payload: Record<string, unknown>;
      headers: Record<string, string>;
      published_at: Date | null;
    }>(`SELECT id, destination, subject, payload, headers, published_at FROM outbox WHERE subject = 'items.vellum_users.login' ORDER BY seq DESC LIMIT 1`);
    expect(row).toMatchObject({ destination: ITEMS_STREAM, published_at: null, headers: { 'x-request-id': 'login-writes-test' } });
    expect(row.payload).toEqual({
      v: 1,
      id: row.id,
      kind: 'audit',
      action: 'login',
      collection: 'vellum_users',
      item: user.id,
      actor: { user: user.id, ip: expect.any(String), user_agent: 'jest', origin: null },
      timestamp: user.last_access!.toISOString(),
    });
    // the session row: a new family of its own, the hash of the refresh token (never the token)
    const [s] = await h.sql<{ id: string; family_id: string; token_hash: string; user_agent: string }>(
      `SELECT id, family_id, token_hash, user_agent FROM sessions WHERE user_id = $1 ORDER BY created_at DESC LIMIT 1`,
      [user.id],
    );
    // a family of its own (never the row's id: a rotated row id is revoked while the session lives on)
    expect(s.family_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(s.family_id).not.toBe(s.id);
    expect(s.token_hash).not.toBe(r.body.data.refresh_token);
    expect(s.user_agent).toBe('jest');
  });
});

describe('the answer of a successful login', () => {
  const claims = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
  const stored = async (familyId: unknown) =>
    (
      await h.sql<{ id: string; family_id: string; expires_at: Date; family_created_at: Date }>(
        `SELECT id, family_id, expires_at, family_created_at FROM sessions WHERE family_id = $1`,
        [familyId],
      )
    )[0];

  it('carries the stored session: its family in the token (sid), its id in a session token, its expiry in the cookie', async () => {
    const cookie = await login({ mode: 'cookie' });
    const s = await stored(claims(cookie.body.data.access_token).sid);
    expect(s!.family_id).not.toBe(s!.id);
    const maxAge = Number(/Max-Age=(\d+)/.exec(String(cookie.headers['set-cookie']))![1]);
    expect(maxAge * 1000).toBe(s!.expires_at.getTime() - s!.family_created_at.getTime());

    const session = await login({ mode: 'session' });
    const token = /vellum_session_token=([^;]+)/.exec(String(session.headers['set-cookie']))![1]!;
    const s2 = await stored(claims(token).sid);
    expect(claims(token).session).toBe(s2!.id);
    expect(Number(/Max-Age=(\d+)/.exec(String(session.headers['set-cookie']))![1]) * 1000).toBe(s2!.expires_at.getTime() - s2!.family_created_at.getTime());
    expect((await request(h.app).get('/users/me').set('Cookie', `vellum_session_token=${token}`)).status).toBe(200);
  });
});

describe('the writes of a failed login', () => {
  it('count every failure, also parallel ones (no lost update), each with its audit event', async () => {
    const email = 'parallel-failures@example.com';
    await h.sql(`INSERT INTO users (id, email, password) VALUES (gen_random_uuid(), $1, (SELECT password FROM users WHERE email = $2))`, [email, ADMIN.email]);
    const [{ id }] = await h.sql<{ id: string }>(`SELECT id FROM users WHERE email = $1`, [email]);
    const answers = await Promise.all(Array.from({ length: 6 }, () => request(h.app).post('/auth/login').send({ email, password: 'wrong-guess' })));
    expect(answers.map(code)).toEqual(Array(6).fill('INVALID_CREDENTIALS'));
    const [u] = await h.sql<{ failed_login_attempts: number }>(`SELECT failed_login_attempts FROM users WHERE id = $1`, [id]);
    expect(u).toEqual({ failed_login_attempts: 6 });
    expect(
      await count(`SELECT count(*) AS n FROM outbox WHERE subject = 'items.vellum_devices.login_failed' AND payload->>'item' = $1`, [`${id}:untrusted`]),
    ).toBe(6);
  });
});

describe('login with the database down', () => {
  it('answers 503 SERVICE_UNAVAILABLE quickly (the pg path maps like Prisma did), not 500', async () => {
    const config = loadAuthConfig({
      DATABASE_URL: `postgres://nobody@127.0.0.1:${await freePort()}/none`,
      LOGIN_STALL_TIME: '0',
      RATE_LIMITER_ENABLED: 'false',
    });
    const db = createPrisma(config.DATABASE_URL, 2);
    const built = createApp({ db, config, logger: silentLogger('auth-test') });
    try {
      const t = Date.now();
      const r = await request(built.app).post('/auth/login').send(ADMIN);
      expect(r.status).toBe(503);
      expect(code(r)).toBe('SERVICE_UNAVAILABLE');
      expect(r.body.errors[0].extensions).toMatchObject({ service: 'database' });
      expect(Date.now() - t).toBeLessThan(5000);
    } finally {
      await built.close();
      await db.$disconnect();
    }
  });
});
