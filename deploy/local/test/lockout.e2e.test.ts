import type { ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, startNpmStartLogged, stopProcessGroup, waitForPing } from '@vellum/testing';
import { api } from './crash-load';
import { FAST_LOGINS, loginFrom } from './platform-harness';

// `npm start` in a child process: 1,000 failed logins at one account from 50 loopback addresses (127.0.0.10–59), no
// device cookie, the right password among them after the first rounds — none gets in, and the owner's browser with
// its device cookie logs in at the first try. Every failure is audited with its address; the bucket locked once.
const ADMIN = { email: 'admin@example.com', password: 'lockout-admin-password-1' };
const OWNER = { email: 'owner@example.com', password: 'owner-password-1' };
const ADDRESSES = Array.from({ length: 50 }, (_, i) => `127.0.0.${10 + i}`);
const PER_ADDRESS = 20;

describe('a lockout an attacker cannot turn against the owner (npm start, real processes)', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'vellum-lockout-'));
  chmodSync(dataDir, 0o755);
  let child: ChildProcess | undefined;
  let port: number;
  beforeAll(async () => {
    const [p, dbPort] = [await freePort(), await freePort()];
    port = p;
    child = startNpmStartLogged(
      dataDir,
      port,
      { EMBEDDED_DB_PORT: String(dbPort), ADMIN_PASSWORD: ADMIN.password, ...FAST_LOGINS, RATE_LIMITER_ENABLED: 'false' },
      { text: '' },
    );
    await waitForPing(port, 120_000);
  }, 150_000);
  afterAll(async () => {
    await stopProcessGroup(child, dataDir);
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('1,000 failures from 50 addresses: no guess gets in, the owner with its device cookie logs in at the first try', async () => {
    const admin = String((await api(port, 'POST', '/auth/login', undefined, ADMIN)).json.data?.access_token);
    const created = await api(port, 'POST', '/users', admin, { ...OWNER, status: 'active' });
    expect(created.status).toBe(200);
    const ownerId = String(created.json.data?.id);
    const first = await loginFrom(port, '127.0.0.1', OWNER);
    expect(first.status).toBe(200);
    const device = first.cookies.find((c) => c.startsWith('vellum_device='))!.split(';')[0]!;

    // each address in turn; the right password is its 5th try (by then the account's untrusted bucket is spent)
    const statuses: Record<number, number> = {};
    let rightGuessesIn = 0;
    await Promise.all(
      ADDRESSES.map(async (from) => {
        for (let i = 0; i < PER_ADDRESS; i++) {
          const right = i === 4;
          const r = await loginFrom(port, from, { email: OWNER.email, password: right ? OWNER.password : `guess-${from}-${i}` });
          statuses[r.status] = (statuses[r.status] ?? 0) + 1;
          if (r.status === 200) rightGuessesIn++;
        }
      }),
    );
    expect(rightGuessesIn).toBe(0);
    // 401 for the failures the account saw; 429 once an address spent its own per-(address, account) budget (10)
    expect(Object.keys(statuses).sort()).toEqual(['401', '429']);
    expect(statuses[401]! + statuses[429]!).toBe(1000);

    const owner = await loginFrom(port, '127.0.0.1', OWNER, device ? { cookie: device } : {});
    expect(owner.status).toBe(200);
    // without the cookie the owner is one more untrusted client: refused like a wrong password
    expect((await loginFrom(port, '127.0.0.2', OWNER)).body).toBe(
      '{"errors":[{"message":"Invalid user credentials.","extensions":{"code":"INVALID_CREDENTIALS"}}]}',
    );

    // the audit trail (recorded asynchronously): every failure the account saw, with its address; one lock
    const query = (action: string) =>
      `/activity?limit=-1&fields=ip,item&filter=${encodeURIComponent(JSON.stringify({ _and: [{ collection: { _eq: 'vellum_devices' } }, { action: { _eq: action } }] }))}`;
    let failures: { ip: string; item: string }[] = [];
    for (const end = Date.now() + 30_000; Date.now() < end; await new Promise((r) => setTimeout(r, 250))) {
      failures = ((await api(port, 'GET', query('login_failed'), admin)).json.data ?? []) as unknown as { ip: string; item: string }[];
      if (failures.length >= statuses[401]! + 1) break;
    }
    expect(failures).toHaveLength(statuses[401]! + 1);
    expect(new Set(failures.map((f) => f.ip))).toEqual(new Set([...ADDRESSES, '127.0.0.2']));
    expect(new Set(failures.map((f) => f.item))).toEqual(new Set([`${ownerId}:untrusted`]));
    const locks = (await api(port, 'GET', query('lockout'), admin)).json.data as unknown as { item: string }[];
    expect(locks).toEqual([{ ip: expect.any(String), item: `${ownerId}:untrusted` }]);
  }, 180_000);
});
