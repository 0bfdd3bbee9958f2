// Failed logins per account bucket (device cookies, OWASP): the untrusted bucket locks, a trusted device still gets
// in; the owner's way back (a reset or invitation link trusts the browser, an admin unlocks); devices listed and
// revoked; proof of work during a spray; the buckets shared by auth replicas through Redis.
import { randomUUID } from 'node:crypto';
import { authentication, createDirectus, rest } from '@directus/sdk';
import { listenOn } from '@vellum/http';
import request from 'supertest';
import type { MailJob } from '@vellum/contracts';
import { createLimiterStore, type LimiterStore } from '@vellum/limits';
import { redisReachable, silentLogger, testRedisUrl } from '@vellum/testing';
import { createApp } from '../src/app';
import { solveChallenge } from '../src/domain/proof-of-work';
import { ADMIN, adminHarness, code, cookiesOf, deviceCookieOf, type Harness } from './helpers';

const BUCKETS = { AUTH_LOGIN_ATTEMPTS: '3', AUTH_LOGIN_ATTEMPTS_WINDOW: '1h' };
const PASSWORD = 'owner-password-1';

let h: Harness;
let admin: string;
beforeAll(async () => {
  ({ h, admin } = await adminHarness(BUCKETS));
});
afterAll(() => h.close());

const login = (app: Harness['app'], email: string, password: string, cookie?: string, extra: object = {}) => {
  const r = request(app).post('/auth/login');
  if (cookie) r.set('Cookie', cookie);
  return r.send({ email, password, ...extra });
};
/** A user, and the device cookie of its owner's first login (a trusted device from then on). */
async function owner(app = h.app): Promise<{ email: string; id: string; device: string }> {
  const email = `owner-${randomUUID()}@x.io`;
  const created = await request(app).post('/users').set('Authorization', `Bearer ${admin}`).send({ email, password: PASSWORD });
  expect(created.status).toBe(200);
  const first = await login(app, email, PASSWORD);
  expect(first.status).toBe(200);
  return { email, id: created.body.data.id, device: deviceCookieOf(first) };
}
const lockUntrusted = async (email: string, app = h.app) => {
  for (let i = 0; i < 3; i++) expect(code(await login(app, email, 'attacker-guess'))).toBe('INVALID_CREDENTIALS');
};

describe('device cookies', () => {
  it('past N untrusted failures the right password is refused like a wrong one, and the trusted device still logs in', async () => {
    const o = await owner();
    await lockUntrusted(o.email);
    const refused = await login(h.app, o.email, PASSWORD);
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ errors: [{ message: 'Invalid user credentials.', extensions: { code: 'INVALID_CREDENTIALS' } }] });
    const trusted = await login(h.app, o.email, PASSWORD, o.device);
    expect(trusted.status).toBe(200);
    // rotated on use: same device, new secret; the old value is no longer trusted
    const rotated = deviceCookieOf(trusted);
    expect(rotated.split('.')[1]).toBe(o.device.split('.')[1]);
    expect(rotated).not.toBe(o.device);
    expect(code(await login(h.app, o.email, PASSWORD, o.device))).toBe('INVALID_CREDENTIALS');
    expect((await login(h.app, o.email, PASSWORD, rotated)).status).toBe(200);
    const locks = await h.sql<{ n: number }>(`SELECT count(*)::int AS n FROM outbox WHERE subject = 'items.vellum_devices.lockout' AND payload->>'item' = $1`, [
      `${o.id}:untrusted`,
    ]);
    expect(locks[0].n).toBe(1);
  });

  it('a trusted device has its own bucket: locked only after its own N failures, which leave other devices alone', async () => {
    const o = await owner();
    const other = deviceCookieOf(await login(h.app, o.email, PASSWORD));
    let device = o.device;
    for (let i = 0; i < 3; i++) expect(code(await login(h.app, o.email, 'typo', device))).toBe('INVALID_CREDENTIALS');
    expect(code(await login(h.app, o.email, PASSWORD, device))).toBe('INVALID_CREDENTIALS');
    const fromOther = await login(h.app, o.email, PASSWORD, other);
    expect(fromOther.status).toBe(200);
    // the untrusted bucket was not touched by the device's failures
    expect((await login(h.app, o.email, PASSWORD)).status).toBe(200);
    // a success resets the device's count: 2 typos, a success, 2 typos, a success
    device = deviceCookieOf(fromOther);
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 2; i++) await login(h.app, o.email, 'typo', device);
      const ok = await login(h.app, o.email, PASSWORD, device);
      expect(ok.status).toBe(200);
      device = deviceCookieOf(ok);
    }
  });

  it('a device cookie of another user, an altered one, or garbage counts as untrusted', async () => {
    const a = await owner();
    const b = await owner();
    await lockUntrusted(a.email);
    expect(code(await login(h.app, a.email, PASSWORD, b.device))).toBe('INVALID_CREDENTIALS');
    const parts = a.device.split('.');
    // its first character replaced by another (a fixed 'x' left one cookie in 64 unchanged, whose login passed)
    const altered = [...parts.slice(0, 3), (parts[3]!.startsWith('x') ? 'y' : 'x') + parts[3]!.slice(1), parts[4]].join('.');
    expect(code(await login(h.app, a.email, PASSWORD, altered))).toBe('INVALID_CREDENTIALS');
    expect(code(await login(h.app, a.email, PASSWORD, 'vellum_device=garbage'))).toBe('INVALID_CREDENTIALS');
    expect((await login(h.app, a.email, PASSWORD, a.device)).status).toBe(200);
  });

  it('the untrusted bucket opens again when its window ends (never a permanent lock)', async () => {
    const { h: short, admin: token } = await adminHarness({ AUTH_LOGIN_ATTEMPTS: '2', AUTH_LOGIN_ATTEMPTS_WINDOW: '1s' });
    try {
      const email = `w-${randomUUID()}@x.io`;
      await request(short.app).post('/users').set('Authorization', `Bearer ${token}`).send({ email, password: PASSWORD }).expect(200);
      for (let i = 0; i < 2; i++) await login(short.app, email, 'guess');
      expect(code(await login(short.app, email, PASSWORD))).toBe('INVALID_CREDENTIALS');
      await new Promise((r) => setTimeout(r, 1100));
      expect((await login(short.app, email, PASSWORD)).status).toBe(200);
    } finally {
      await short.close();
    }
  });
});

describe('API clients', () => {
  it('the official SDK in session mode with a cookie store is a trusted device; a token-only client is untrusted', async () => {
    const o = await owner();
    const server = await listenOn(h.app);
    try {
      const jar = new Map<string, string>();
      const jarFetch = async (input: Parameters<typeof fetch>[0], init: RequestInit = {}) => {
        const headers = new Headers(init.headers);
        if (jar.size) headers.set('cookie', [...jar].map(([k, v]) => `${k}=${v}`).join('; '));
        const res = await fetch(input, { ...init, headers });
        for (const c of res.headers.getSetCookie()) {
          const [pair] = c.split(';');
          jar.set(pair!.slice(0, pair!.indexOf('=')), pair!.slice(pair!.indexOf('=') + 1));
        }
        return res;
      };
      const sdk = () =>
        createDirectus(server.url, { globals: { fetch: jarFetch as typeof fetch } })
          .with(authentication('session'))
          .with(rest());
      await sdk().login({ email: o.email, password: PASSWORD });
      expect(jar.get('vellum_device')).toBeDefined();
      await lockUntrusted(o.email);
      // the same cookie store, a new client: still gets in; a client without cookies does not
      await expect(sdk().login({ email: o.email, password: PASSWORD })).resolves.toMatchObject({ expires: expect.any(Number) });
      const bare = createDirectus(server.url).with(authentication('json')).with(rest());
      await expect(bare.login({ email: o.email, password: PASSWORD })).rejects.toMatchObject({ errors: [{ extensions: { code: 'INVALID_CREDENTIALS' } }] });
    } finally {
      await server.close(100);
    }
  });
});

describe("the owner's way back", () => {
  const mailJobs = async () => (await h.sql<{ payload: MailJob }>(`SELECT payload FROM outbox WHERE destination = 'MAIL' ORDER BY seq`)).map((r) => r.payload);
  const tokenOf = (job: MailJob) => new URL(String(job.data.url)).searchParams.get('token')!;

  it('opening a password-reset link trusts the browser: it logs in with the old password; the token stays usable', async () => {
    const o = await owner();
    await lockUntrusted(o.email);
    await request(h.app).post('/auth/password/request').send({ email: o.email }).expect(204);
    const token = tokenOf((await mailJobs()).filter((j) => j.to === o.email).at(-1)!);
    const opened = await request(h.app).post('/auth/device').send({ token });
    expect(opened.status).toBe(204);
    const device = `vellum_device=${cookiesOf(opened).vellum_device}`;
    expect((await login(h.app, o.email, PASSWORD, device)).status).toBe(200);
    const trusted = await h.sql<{ trusted_by: string }>(`SELECT trusted_by FROM devices WHERE user_id = $1 ORDER BY created_at`, [o.id]);
    expect(trusted.map((d) => d.trusted_by)).toEqual(['login', 'password_reset']);
    expect((await request(h.app).post('/auth/password/reset').send({ token, password: 'a-new-password-1' })).status).toBe(204);
    // a used token trusts nothing more; garbage neither
    expect(code(await request(h.app).post('/auth/device').send({ token }))).toBe('FORBIDDEN');
    expect(code(await request(h.app).post('/auth/device').send({ token: 'nope' }))).toBe('INVALID_TOKEN');
    expect(code(await request(h.app).post('/auth/device').send({}))).toBe('INVALID_PAYLOAD');
  });

  it('an admin unlocks an account: its buckets start again (audited)', async () => {
    const o = await owner();
    await lockUntrusted(o.email);
    expect(
      code(
        await request(h.app)
          .post(`/users/${o.id}/unlock`)
          .set('Authorization', `Bearer ${(await login(h.app, o.email, PASSWORD, o.device)).body.data.access_token}`),
      ),
    ).toBe('FORBIDDEN');
    expect((await request(h.app).post(`/users/${o.id}/unlock`).set('Authorization', `Bearer ${admin}`)).status).toBe(204);
    expect((await login(h.app, o.email, PASSWORD)).status).toBe(200);
    const unlocks = await h.sql(`SELECT 1 FROM outbox WHERE subject = 'items.vellum_devices.unlock' AND payload->>'item' = $1`, [`${o.id}:all`]);
    expect(unlocks).toHaveLength(1);
  });

  it('the user sees their devices and revokes one: its cookie is untrusted from then on', async () => {
    const o = await owner();
    const ok = await login(h.app, o.email, PASSWORD, o.device);
    const device = deviceCookieOf(ok);
    const token = ok.body.data.access_token;
    const list = await request(h.app).get('/users/me/devices').set('Authorization', `Bearer ${token}`).set('Cookie', device);
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data[0]).toMatchObject({ id: device.split('.')[1], trusted_by: 'login', current: true, ip: expect.any(String) });
    expect(JSON.stringify(list.body)).not.toContain(device.split('.')[3]);
    const asAdmin = await request(h.app).get(`/users/${o.id}/devices`).set('Authorization', `Bearer ${admin}`);
    expect(asAdmin.body.data.map((d: { id: string }) => d.id)).toEqual([list.body.data[0].id]);
    await request(h.app).delete(`/users/me/devices/${list.body.data[0].id}`).set('Authorization', `Bearer ${token}`).expect(204);
    expect(code(await request(h.app).delete(`/users/me/devices/${list.body.data[0].id}`).set('Authorization', `Bearer ${token}`))).toBe('FORBIDDEN');
    await lockUntrusted(o.email);
    expect(code(await login(h.app, o.email, PASSWORD, device))).toBe('INVALID_CREDENTIALS');
  });
});

describe('password spraying', () => {
  it('past the threshold, untrusted logins must solve a challenge (once each); trusted devices are not asked', async () => {
    const { h: s, admin: token } = await adminHarness({ AUTH_SPRAY_THRESHOLD: '4', AUTH_POW_DIFFICULTY: '8' });
    try {
      const email = `spray-${randomUUID()}@x.io`;
      await request(s.app).post('/users').set('Authorization', `Bearer ${token}`).send({ email, password: PASSWORD }).expect(200);
      const device = deviceCookieOf(await login(s.app, email, PASSWORD));
      for (let i = 0; i < 4; i++) expect(code(await login(s.app, `nobody-${i}@x.io`, 'guess'))).toBe('INVALID_CREDENTIALS');
      const asked = await login(s.app, email, PASSWORD);
      expect(asked.status).toBe(401);
      const { code: errorCode, challenge, difficulty } = asked.body.errors[0].extensions;
      expect({ errorCode, difficulty }).toEqual({ errorCode: 'PROOF_OF_WORK_REQUIRED', difficulty: 8 });
      const pow = solveChallenge(challenge, difficulty);
      expect((await login(s.app, email, PASSWORD, undefined, { pow })).status).toBe(200);
      expect(code(await login(s.app, email, PASSWORD, undefined, { pow }))).toBe('PROOF_OF_WORK_REQUIRED');
      expect(code(await login(s.app, email, PASSWORD, undefined, { pow: `${challenge}:not-a-solution` }))).toBe('PROOF_OF_WORK_REQUIRED');
      expect((await login(s.app, email, PASSWORD, device)).status).toBe(200);
    } finally {
      await s.close();
    }
  });
});

describe('redis store: the buckets are shared by auth replicas', () => {
  const redisUrl = testRedisUrl();
  const stores: LimiterStore[] = [];
  afterAll(async () => {
    for (const s of stores) await s.close();
  });

  it('untrusted failures at one replica lock the account at another; a trusted device gets in at both', async () => {
    if (!(await redisReachable(redisUrl))) {
      console.warn(`\n!!! REDIS LOGIN-BUCKET TEST SKIPPED: no Redis at ${redisUrl} (set REDIS_URL) !!!\n`);
      return;
    }
    const prefix = `vellum-test:${randomUUID()}:`;
    const store = () => {
      const s = createLimiterStore({ redisUrl, prefix });
      stores.push(s);
      return s;
    };
    const { h: a, admin: token } = await adminHarness(BUCKETS, { limiterStore: store() });
    // replicas share the signing key (the device cookies' MAC key is derived from it)
    const b = createApp({ db: a.prisma, config: a.config, keys: a.built.ctx.keys, logger: silentLogger('auth-test'), limiterStore: store() });
    try {
      const email = `r-${randomUUID()}@x.io`;
      await request(a.app).post('/users').set('Authorization', `Bearer ${token}`).send({ email, password: PASSWORD }).expect(200);
      const device = deviceCookieOf(await login(a.app, email, PASSWORD));
      for (let i = 0; i < 3; i++) expect(code(await login(i % 2 ? b.app : a.app, email, 'guess'))).toBe('INVALID_CREDENTIALS');
      expect(code(await login(a.app, email, PASSWORD))).toBe('INVALID_CREDENTIALS');
      expect(code(await login(b.app, email, PASSWORD))).toBe('INVALID_CREDENTIALS');
      expect((await login(b.app, email, PASSWORD, device)).status).toBe(200);
    } finally {
      await b.close();
      await a.close();
    }
  });
});

it('uses the ADMIN account only as the admin (sanity: its own untrusted bucket is untouched)', async () => {
  expect((await login(h.app, ADMIN.email, ADMIN.password)).status).toBe(200);
});
