import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ACCESS_BUCKET, ITEMS_STREAM, ITEMS_SUBJECTS, REVOKED_SESSIONS_BUCKET, type RoleAccess } from '@vellum/contracts';
import { createInProcessMessaging, type Delivery } from '@vellum/messaging';
import { silentLogger, useMigratedDatabase } from '@vellum/testing';
import { loadAuthConfig } from '../src/config';
import { loadSigningKeys } from '../src/data/signing-keys';
import { MIGRATIONS_DIR, startAuth } from '../src/start';

const db = useMigratedDatabase(MIGRATIONS_DIR);

const until = async (cond: () => boolean | Promise<boolean>, ms = 5000) => {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('startAuth (service shape)', () => {
  it('migrates, bootstraps, publishes the access map, serves over HTTP, revokes sessions in KV, restarts with the same key', async () => {
    const keysDir = path.join(mkdtempSync(path.join(tmpdir(), 'auth-keys-')), 'keys');
    const config = loadAuthConfig({
      DATABASE_URL: db.url,
      AUTH_KEYS_DIR: keysDir,
      ADMIN_EMAIL: 'root@vellum.local',
      ADMIN_PASSWORD: 'root-password-1',
      LOGIN_STALL_TIME: '0',
    });
    const messaging = createInProcessMessaging();
    const events: Delivery[] = [];
    const items = await messaging.eventStream(ITEMS_STREAM, { subjects: ITEMS_SUBJECTS });
    await items.subscribe({ durable: 'test', handler: async (d) => void events.push(d) });
    const logger = silentLogger('auth-test');

    const svc = await startAuth(config, { logger, messaging });
    let kid: string;
    try {
      expect(await (await fetch(`${svc.url}/server/ping`)).text()).toBe('pong');
      expect((await svc.health()).status).toBe('ok');
      const jwks = (await (await fetch(`${svc.url}/auth/.well-known/jwks.json`)).json()) as { keys: { kid: string }[] };
      kid = jwks.keys[0].kid;
      expect(statSync(path.join(keysDir, 'auth-es256-private.pem')).mode & 0o777).toBe(0o600);

      const access = await messaging.keyValue<RoleAccess>(ACCESS_BUCKET);
      await until(async () => (await access.entries()).size === 2);
      expect(await access.get('public')).toMatchObject({ role: null, admin: false });
      await until(() => events.some((e) => e.subject === 'items.vellum_users.create'));

      const login = await fetch(`${svc.url}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'root@vellum.local', password: 'root-password-1', mode: 'session' }),
      });
      expect(login.status).toBe(200);
      const cookie = login.headers.get('set-cookie')!.split(';')[0];
      const sid = JSON.parse(Buffer.from(cookie.split('=')[1].split('.')[1], 'base64url').toString()).session;
      const logout = await fetch(`${svc.url}/auth/logout`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie },
        body: JSON.stringify({ mode: 'session' }),
      });
      expect(logout.status).toBe(204);
      const revoked = await messaging.keyValue(REVOKED_SESSIONS_BUCKET);
      await until(async () => (await revoked.get(sid)) !== undefined, 2000); // LISTEN/NOTIFY: well under the poll interval
      await until(() => events.some((e) => e.subject === 'items.vellum_users.logout'));
    } finally {
      await svc.stop();
    }

    // second start: no second admin, same signing key
    const again = await startAuth(config, { logger, messaging });
    try {
      const jwks = (await (await fetch(`${again.url}/auth/.well-known/jwks.json`)).json()) as { keys: { kid: string }[] };
      expect(jwks.keys[0].kid).toBe(kid!);
      expect(await again.ctx.db.user.count()).toBe(1);
    } finally {
      await again.stop();
      await messaging.close();
    }
    expect(readFileSync(path.join(keysDir, 'auth-es256-private.pem'), 'utf8')).toMatch(/BEGIN PRIVATE KEY/);
  });

  it('accepts a configured key with kid and previous public keys for rotation', async () => {
    const current = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const old = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const keys = loadSigningKeys({
      AUTH_PRIVATE_KEY: current.privateKey.export({ format: 'pem', type: 'pkcs8' }) as string,
      AUTH_KEY_ID: 'k2',
      AUTH_PREVIOUS_PUBLIC_KEYS: JSON.stringify([{ ...old.publicKey.export({ format: 'jwk' }), kid: 'k1' }]),
    });
    expect(keys.jwks.keys.map((k) => k.kid)).toEqual(['k2', 'k1']);
    expect([...keys.verificationKeys.keys()]).toEqual(['k2', 'k1']);
    expect(() => loadSigningKeys({ AUTH_PRIVATE_KEY: generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }) as string })).toThrow(
      /P-256/,
    );
  });
});
