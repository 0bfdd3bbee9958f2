import jwt from 'jsonwebtoken';
import request from 'supertest';
import { timeStep, totpAt } from '../src/domain/totp';
import { ADMIN, code, adminHarness, deviceCookieOf, loginAs, testClock, type Harness } from './helpers';

let h: Harness;
let admin: string;
const clock = testClock();
beforeAll(async () => {
  ({ h, admin } = await adminHarness({ AUTH_OTP_ATTEMPTS: '10', AUTH_OTP_ATTEMPTS_WINDOW: '3s' }, { clock }));
});
afterAll(() => h.close());

const PASSWORD = 'tfa-user-password';
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const post = (path: string, token: string, b: object) => request(h.app).post(path).set(bearer(token)).send(b);
const login = (email: string, otp?: string) =>
  request(h.app)
    .post('/auth/login')
    .send({ email, password: PASSWORD, ...(otp ? { otp } : {}) });
/** The code of the step `delta` steps from the clock's. */
const codeAt = (secret: string, delta = 0) => totpAt(secret, timeStep(clock.now()) + delta);
const nextStep = () => clock.advance(30_000);

async function createUser(email: string, role?: string): Promise<string> {
  const r = await post('/users', admin, { email, password: PASSWORD, ...(role ? { role } : {}) });
  expect(r.status).toBe(200);
  return r.body.data.id;
}

/** A user with TFA enabled: its secret (the enabling code is used up). */
async function enrolled(email: string): Promise<string> {
  await createUser(email);
  const token = (await loginAs(h.app, email, PASSWORD)).body.data.access_token;
  const secret = (await post('/users/me/tfa/generate', token, { password: PASSWORD })).body.data.secret;
  expect((await post('/users/me/tfa/enable', token, { secret, otp: codeAt(secret) })).status).toBe(204);
  return secret;
}

describe('TOTP two-factor', () => {
  it('enrol (pending secret, encrypted at rest) → enable → login asks for the code and accepts a fresh one', async () => {
    const id = await createUser('ann@x.io');
    const token = (await loginAs(h.app, 'ann@x.io', PASSWORD)).body.data.access_token;

    const bad = await post('/users/me/tfa/generate', token, { password: 'wrong-password' });
    expect(bad.status).toBe(401);
    expect(code(bad)).toBe('INVALID_CREDENTIALS');
    expect(code(await post('/users/me/tfa/generate', token, {}))).toBe('INVALID_PAYLOAD');
    expect((await request(h.app).post('/users/me/tfa/generate').send({ password: PASSWORD })).status).toBe(403);

    const gen = await post('/users/me/tfa/generate', token, { password: PASSWORD });
    expect(gen.status).toBe(200);
    const { secret, otpauth_url } = gen.body.data;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(new URL(otpauth_url).searchParams.get('secret')).toBe(secret);
    const [pending] = await h.sql<{ tfa_pending_secret: string; tfa_secret: string | null }>(`SELECT tfa_pending_secret, tfa_secret FROM users WHERE id = $1`, [
      id,
    ]);
    expect(pending.tfa_secret).toBeNull();
    expect(pending.tfa_pending_secret).toMatch(/^v1:/);
    expect(pending.tfa_pending_secret).not.toContain(secret);

    // the secret must be the pending one; the code must come from it
    const other = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
    expect(code(await post('/users/me/tfa/enable', token, { secret: other, otp: codeAt(other) }))).toBe('INVALID_PAYLOAD');
    const wrong = await post('/users/me/tfa/enable', token, { secret, otp: codeAt(secret, 3) });
    expect(wrong.status).toBe(401);
    expect(code(wrong)).toBe('INVALID_OTP');
    const enablingCode = codeAt(secret);
    expect((await post('/users/me/tfa/enable', token, { secret, otp: enablingCode })).status).toBe(204);
    const [row] = await h.sql<{ tfa_pending_secret: string | null; tfa_secret: string }>(`SELECT tfa_pending_secret, tfa_secret FROM users WHERE id = $1`, [
      id,
    ]);
    expect(row.tfa_pending_secret).toBeNull();
    expect(row.tfa_secret).toMatch(/^v1:/);
    expect(row.tfa_secret).not.toContain(secret);
    expect(code(await post('/users/me/tfa/generate', token, { password: PASSWORD }))).toBe('INVALID_PAYLOAD');

    // events: TFA enabled audited; the user update shows the secret redacted
    expect(await h.sql(`SELECT 1 FROM outbox WHERE subject = 'items.vellum_users.tfa_enabled' AND payload->>'item' = $1`, [id])).toHaveLength(1);
    const [upd] = await h.sql<{ payload: { data: Record<string, unknown> } }>(
      `SELECT payload FROM outbox WHERE subject = 'items.vellum_users.update' AND payload->>'item' = $1 ORDER BY seq DESC LIMIT 1`,
      [id],
    );
    expect(upd.payload.data.tfa_secret).toBe('**********');

    // login: password first, then the code
    expect(
      code(
        await request(h.app)
          .post('/auth/login')
          .send({ email: 'ann@x.io', password: 'nope-nope', otp: codeAt(secret) }),
      ),
    ).toBe('INVALID_CREDENTIALS');
    const noCode = await login('ann@x.io');
    expect(noCode.status).toBe(401);
    expect(code(noCode)).toBe('INVALID_OTP');
    expect(code(await login('ann@x.io', enablingCode))).toBe('INVALID_OTP'); // the enabling code is used up
    nextStep();
    const ok = await login('ann@x.io', codeAt(secret));
    expect(ok.status).toBe(200);
    expect(ok.body.data.access_token).toBeTruthy();
  });

  it('a code is accepted once: the same code twice → the second is refused', async () => {
    const secret = await enrolled('bob@x.io');
    nextStep();
    const otp = codeAt(secret);
    expect((await login('bob@x.io', otp)).status).toBe(200);
    const again = await login('bob@x.io', otp);
    expect(again.status).toBe(401);
    expect(code(again)).toBe('INVALID_OTP');
  });

  it('parallel logins with one code → exactly one passes (compare-and-set on the last used step)', async () => {
    const secret = await enrolled('cat@x.io');
    for (let round = 0; round < 3; round++) {
      nextStep();
      const otp = codeAt(secret);
      // 4 at once: the 3 refused replays count as failures, 9 in all: under the TOTP budget (10)
      const results = await Promise.all(Array.from({ length: 4 }, () => login('cat@x.io', otp)));
      expect(results.map((r) => r.status).sort()).toEqual([200, 401, 401, 401]);
      expect(results.filter((r) => r.status === 401).every((r) => code(r) === 'INVALID_OTP')).toBe(true);
    }
  });

  it('±1 step accepted, ±2 steps refused', async () => {
    const secret = await enrolled('dan@x.io');
    clock.advance(10 * 30_000);
    expect(code(await login('dan@x.io', codeAt(secret, -2)))).toBe('INVALID_OTP');
    expect(code(await login('dan@x.io', codeAt(secret, 2)))).toBe('INVALID_OTP');
    expect((await login('dan@x.io', codeAt(secret, -1))).status).toBe(200);
    expect((await login('dan@x.io', codeAt(secret, 1))).status).toBe(200);
    // an older step than the last accepted one is refused even inside the window
    expect(code(await login('dan@x.io', codeAt(secret, 0)))).toBe('INVALID_OTP');
  });

  it('wrong codes spend the account’s TOTP budget, shared by every device: then even the right code is refused, until the window ends', async () => {
    const secret = await enrolled('eve@x.io');
    nextStep();
    // each guess from a fresh device cookie (a trusted device of eve's: a successful login made each one)
    const devices: string[] = [];
    for (let i = 0; i < 10; i++) {
      nextStep();
      const ok = await login('eve@x.io', codeAt(secret));
      expect(ok.status).toBe(200);
      devices.push(deviceCookieOf(ok));
    }
    const withDevice = (device: string, otp: string) => login('eve@x.io', otp).set('Cookie', device);
    for (const device of devices) expect(code(await withDevice(device, codeAt(secret, 5)))).toBe('INVALID_OTP');
    nextStep();
    // locked: the right code answers like a wrong one, from every device
    expect(code(await withDevice(devices[0]!, codeAt(secret)))).toBe('INVALID_OTP');
    expect(code(await login('eve@x.io', codeAt(secret)))).toBe('INVALID_OTP');
    const locks = await h.sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM outbox WHERE subject = 'items.vellum_devices.lockout' AND payload->>'item' LIKE '%:otp'`,
    );
    expect(locks[0].n).toBe(1);
    await new Promise((r) => setTimeout(r, 3_100));
    nextStep();
    expect((await login('eve@x.io', codeAt(secret))).status).toBe(200);
  });

  it('disable needs a valid code; afterwards login no longer asks for one', async () => {
    const secret = await enrolled('fay@x.io');
    nextStep();
    const token = (await login('fay@x.io', codeAt(secret))).body.data.access_token;
    nextStep();
    expect(code(await post('/users/me/tfa/disable', token, { otp: codeAt(secret, 4) }))).toBe('INVALID_OTP');
    expect(code(await post('/users/me/tfa/disable', token, {}))).toBe('INVALID_PAYLOAD');
    expect((await post('/users/me/tfa/disable', token, { otp: codeAt(secret) })).status).toBe(204);
    expect(await h.sql(`SELECT 1 FROM users WHERE email = 'fay@x.io' AND tfa_secret IS NULL`)).toHaveLength(1);
    expect(await h.sql(`SELECT 1 FROM outbox WHERE subject = 'items.vellum_users.tfa_disabled'`)).toHaveLength(1);
    const plain = await login('fay@x.io');
    expect(plain.status).toBe(200);
    expect(code(await post('/users/me/tfa/disable', token, { otp: codeAt(secret) }))).toBe('INVALID_PAYLOAD');
  });

  it('a role with enforce_tfa puts enforce_tfa: true into the tokens of users who have not enrolled', async () => {
    const role = await post('/roles', admin, { name: 'Strict', enforce_tfa: true });
    await createUser('gus@x.io', role.body.data.id);
    const claims = (t: string) => jwt.decode(t) as Record<string, unknown>;
    const first = (await loginAs(h.app, 'gus@x.io', PASSWORD)).body.data;
    expect(claims(first.access_token).enforce_tfa).toBe(true);
    const refreshed = await request(h.app).post('/auth/refresh').send({ refresh_token: first.refresh_token });
    expect(claims(refreshed.body.data.access_token).enforce_tfa).toBe(true);
    expect(claims((await loginAs(h.app)).body.data.access_token).enforce_tfa).toBeUndefined(); // admin role: not enforced

    const secret = (await post('/users/me/tfa/generate', first.access_token, { password: PASSWORD })).body.data.secret;
    await post('/users/me/tfa/enable', first.access_token, { secret, otp: codeAt(secret) });
    nextStep();
    const after = await login('gus@x.io', codeAt(secret));
    expect(after.status).toBe(200);
    expect(claims(after.body.data.access_token).enforce_tfa).toBeUndefined();
    expect(ADMIN.email).toBeTruthy();
  });
});
