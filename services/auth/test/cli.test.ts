// The admin CLI against a real database: help and mistakes (one line, exit codes), user commands, and the two key
// rotations an operator performs (TFA encryption key, ES256 signing key) — each proven by logins afterwards.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { createApp } from '../src/app';
import { runCli } from '../src/cli';
import { loadAuthConfig } from '../src/config';
import { timeStep, totpAt } from '../src/domain/totp';
import { harness, loginAs, type Harness } from './helpers';
import { silentLogger } from '@vellum/testing';

const pem = () => generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'pem', type: 'pkcs8' }) as string;
const KEY_A = pem();
const PASSWORD = 'cli-user-password';
let h: Harness;
let env: Record<string, string>;
let dir: string;
beforeAll(async () => {
  // no AUTH_TFA_ENCRYPTION_KEY: the TFA key is derived from the signing key, as in deployments that never set it
  h = await harness({ AUTH_PRIVATE_KEY: KEY_A });
  env = { DATABASE_URL: h.db.url, AUTH_PRIVATE_KEY: KEY_A, PUBLIC_URL: 'http://vellum.local:8055', LOG_LEVEL: 'silent' };
  dir = mkdtempSync(path.join(os.tmpdir(), 'vellum-cli-'));
});
afterAll(async () => {
  await h.close();
  rmSync(dir, { recursive: true, force: true });
});

async function cli(args: string[], e: Record<string, string> = env): Promise<{ code: number; out: string }> {
  const lines: string[] = [];
  const code = await runCli(args, { out: (l) => lines.push(l), env: e });
  return { code, out: lines.join('\n') };
}
const appWith = (extra: Record<string, string>) =>
  createApp({ db: h.prisma, config: loadAuthConfig({ ...env, LOGIN_STALL_TIME: '0', RATE_LIMITER_ENABLED: 'false', ...extra }), logger: silentLogger('t') });

describe('help and mistakes', () => {
  it('lists every command; <command> --help explains one; exit 0', async () => {
    const all = await cli(['help']);
    expect(all.code).toBe(0);
    for (const c of ['create-user', 'create-admin', 'set-password', 'list', 'generate-tfa-key', 'rotate-tfa-key', 'rotate-signing-key'])
      expect(all.out).toContain(`  ${c} `);
    const one = await cli(['rotate-tfa-key', '--help']);
    expect(one).toMatchObject({ code: 0, out: expect.stringContaining('usage: npm run admin -- rotate-tfa-key (--old-key') });
    expect((await cli([])).code).toBe(2);
  });

  it('answers mistakes with one line and exit code 2 (usage) or 1 (failure), never a stack trace', async () => {
    const cases: [string[], Record<string, string>, number, RegExp][] = [
      [['frobnicate'], env, 2, /^error: unknown command "frobnicate"/],
      [['create-user', '--email', 'x@y.io'], env, 2, /^error: --password is required\nusage: /],
      [['create-user', '--bogus'], env, 2, /^error: Unknown option '--bogus'/],
      [['list'], {}, 1, /^error: Invalid configuration: - DATABASE_URL/],
      [['create-user', '--email', 'weak@x.io', '--password', 'a'], env, 1, /^error: Password must be at least 8 characters long/],
      [['set-password', '--email', 'nobody@x.io', '--password', PASSWORD], env, 1, /^error: no user with e-mail "nobody@x.io"$/],
      [['create-user', '--email', 'r@x.io', '--password', PASSWORD, '--role', 'No such role'], env, 1, /^error: no role "No such role"/],
      [['rotate-tfa-key'], env, 2, /^error: give exactly one of --old-key/],
      [['list'], { ...env, DATABASE_URL: 'postgres://root@127.0.0.1:1/none' }, 1, /^error: cannot reach the database/],
    ];
    for (const [args, e, code, out] of cases) {
      const r = await cli(args, e);
      expect({ args, code: r.code, out: r.out }).toEqual({ args, code, out: expect.stringMatching(out) });
      expect(r.out).not.toMatch(/\n\s+at /);
    }
  });
});

describe('users', () => {
  it('create-admin, set-password, list', async () => {
    const made = await cli(['create-admin', '--email', 'ops@x.io', '--password', PASSWORD]);
    expect(made).toMatchObject({ code: 0, out: expect.stringMatching(/^created [0-9a-f-]{36} ops@x\.io \(administrator\)$/) });
    const token = (await loginAs(h.app, 'ops@x.io', PASSWORD)).body.data.access_token;
    expect((await request(h.app).get('/users').set('Authorization', `Bearer ${token}`)).status).toBe(200); // admin only
    expect(await cli(['set-password', '--email', 'ops@x.io', '--password', 'another-password-2'])).toEqual({ code: 0, out: 'password set for ops@x.io' });
    expect((await request(h.app).post('/auth/login').send({ email: 'ops@x.io', password: PASSWORD })).status).toBe(401);
    await loginAs(h.app, 'ops@x.io', 'another-password-2');
    const list = await cli(['list']);
    expect(list.out.split('\n')).toEqual(expect.arrayContaining([expect.stringMatching(/\tops@x\.io\tactive\tAdministrator$/)]));
  });
});

describe('reset-tfa (issue 40.7)', () => {
  it('a user who lost their authenticator signs in with the password again; an administrator does the same through the API', async () => {
    const enrol = async (email: string) => {
      expect((await cli(['create-user', '--email', email, '--password', PASSWORD])).code).toBe(0);
      const auth = { Authorization: `Bearer ${(await loginAs(h.app, email, PASSWORD)).body.data.access_token}` };
      const secret = (await request(h.app).post('/users/me/tfa/generate').set(auth).send({ password: PASSWORD })).body.data.secret as string;
      const otp = totpAt(secret, timeStep(new Date()));
      expect((await request(h.app).post('/users/me/tfa/enable').set(auth).send({ secret, otp })).status).toBe(204);
      expect((await request(h.app).post('/auth/login').send({ email, password: PASSWORD })).body.errors[0].extensions.code).toBe('INVALID_OTP');
    };
    await enrol('lost-phone@x.io');
    expect(await cli(['reset-tfa', '--email', 'lost-phone@x.io'])).toEqual({ code: 0, out: 'two-factor authentication reset for lost-phone@x.io' });
    expect((await loginAs(h.app, 'lost-phone@x.io', PASSWORD)).status).toBe(200);
    expect(await cli(['reset-tfa', '--email', 'lost-phone@x.io'])).toMatchObject({ code: 1, out: expect.stringContaining('TFA is not enabled') });
    expect(await cli(['reset-tfa', '--email', 'nobody@x.io'])).toEqual({ code: 1, out: 'error: no user with e-mail "nobody@x.io"' });

    await enrol('lost-again@x.io');
    const id = (await h.sql<{ id: string }>(`SELECT id FROM users WHERE email = 'lost-again@x.io'`))[0]!.id;
    const self = (await loginAs(h.app, 'lost-phone@x.io', PASSWORD)).body.data.access_token as string;
    expect((await request(h.app).post(`/users/${id}/tfa/reset`).set('Authorization', `Bearer ${self}`)).status).toBe(403); // admins only
    expect((await cli(['create-admin', '--email', 'boss@x.io', '--password', PASSWORD])).code).toBe(0);
    const boss = (await loginAs(h.app, 'boss@x.io', PASSWORD)).body.data.access_token as string;
    expect((await request(h.app).post(`/users/${id}/tfa/reset`).set('Authorization', `Bearer ${boss}`)).status).toBe(204);
    expect((await loginAs(h.app, 'lost-again@x.io', PASSWORD)).status).toBe(200);
  });
});

describe('key rotation', () => {
  it('rotate-tfa-key moves enrolled secrets to the new key in one go; logins with a code keep working', async () => {
    expect((await cli(['create-user', '--email', 'tfa@x.io', '--password', PASSWORD])).code).toBe(0);
    const token = (await loginAs(h.app, 'tfa@x.io', PASSWORD)).body.data.access_token;
    const auth = { Authorization: `Bearer ${token}` };
    const secret = (await request(h.app).post('/users/me/tfa/generate').set(auth).send({ password: PASSWORD })).body.data.secret as string;
    const step = timeStep(new Date());
    expect(
      (
        await request(h.app)
          .post('/users/me/tfa/enable')
          .set(auth)
          .send({ secret, otp: totpAt(secret, step) })
      ).status,
    ).toBe(204);
    const sealed = async () => (await h.sql<{ tfa_secret: string }>(`SELECT tfa_secret FROM users WHERE email = 'tfa@x.io'`))[0]!.tfa_secret;
    const before = await sealed();

    const newKey = randomBytes(32).toString('hex');
    const withNew = { ...env, AUTH_TFA_ENCRYPTION_KEY: newKey };
    expect((await cli(['rotate-tfa-key', '--old-from-signing-key'], env)).code).toBe(2); // the new key must be set
    const wrong = await cli(['rotate-tfa-key', '--old-key', 'ab'.repeat(32)], withNew);
    expect(wrong).toEqual({ code: 1, out: 'error: 1 TFA secret(s) open with neither key: nothing changed (check the old key, or --force)' });
    expect(await sealed()).toBe(before);

    expect(await cli(['rotate-tfa-key', '--old-from-signing-key'], withNew)).toEqual({
      code: 0,
      out: 're-encrypted 1, already under the new key 0, unreadable 0',
    });
    expect(await sealed()).not.toBe(before);
    expect(await cli(['rotate-tfa-key', '--old-from-signing-key'], withNew)).toEqual({
      code: 0,
      out: 're-encrypted 0, already under the new key 1, unreadable 0',
    });

    const rotated = appWith({ AUTH_TFA_ENCRYPTION_KEY: newKey });
    try {
      // the next step's code (the enabling one is used up): the old key no longer opens the secret, the new one does
      const otp = totpAt(secret, step + 1);
      const stale = await request(h.app).post('/auth/login').send({ email: 'tfa@x.io', password: PASSWORD, otp });
      expect(stale.status).not.toBe(200);
      const ok = await request(rotated.app).post('/auth/login').send({ email: 'tfa@x.io', password: PASSWORD, otp });
      expect(ok.status).toBe(200);
    } finally {
      await rotated.close();
    }
  });

  it('rotate-signing-key writes a new key and the JWKS that keeps tokens of the old one valid until they expire', async () => {
    const out = path.join(dir, 'new-key.pem');
    const r = await cli(['rotate-signing-key', '--out', out]);
    expect(r.code).toBe(0);
    expect(statSync(out).mode & 0o777).toBe(0o600);
    const previous = JSON.parse(r.out) as { keys: { kid: string }[] };
    const oldToken = (await loginAs(h.app)).body.data.access_token as string;
    const oldKid = JSON.parse(Buffer.from(oldToken.split('.')[0]!, 'base64url').toString()).kid;
    expect(previous.keys.map((k) => k.kid)).toEqual([oldKid]);
    expect((await cli(['rotate-signing-key', '--out', out])).out).toMatch(/^error: cannot write .*new-key\.pem: EEXIST$/);

    const next = appWith({ AUTH_PRIVATE_KEY: readFileSync(out, 'utf8'), AUTH_PREVIOUS_PUBLIC_KEYS: r.out });
    const without = appWith({ AUTH_PRIVATE_KEY: readFileSync(out, 'utf8') });
    try {
      const me = (app: typeof h.app, t: string) => request(app).get('/users/me').set('Authorization', `Bearer ${t}`);
      expect((await me(next.app, oldToken)).status).toBe(200);
      expect((await me(without.app, oldToken)).body.errors[0].extensions.code).toBe('INVALID_TOKEN'); // unknown kid
      const jwks = (await request(next.app).get('/auth/.well-known/jwks.json')).body.keys.map((k: { kid: string }) => k.kid);
      expect(jwks).toHaveLength(2);
      expect(jwks[1]).toBe(oldKid);
      const newToken = (await loginAs(next.app)).body.data.access_token as string;
      expect((await me(next.app, newToken)).status).toBe(200);
    } finally {
      await next.close();
      await without.close();
    }
  });
});
