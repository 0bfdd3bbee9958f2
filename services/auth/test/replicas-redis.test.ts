import { spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import path from 'node:path';
import { MIGRATIONS_DIR } from '../src/start';
import { createTestDatabase, freePort, redisReachable, testNatsUrl, testRedisUrl, waitForPing, type TestDatabase } from '@vellum/testing';

// Two auth service processes (the distributed topology's replicas) on one database and one Redis: the login
// buckets are shared, so failures spread over the replicas lock the untrusted bucket, and the owner's device
// cookie from one replica signs in at the other.
const redisUrl = testRedisUrl();
const natsUrl = testNatsUrl();
// a new account each run: the buckets in the shared Redis outlive the test (they expire with their window)
const email = `owner-${process.pid}-${Date.now()}@example.com`;
const password = 'owner-password-1';

describe('auth replicas share the login buckets through Redis', () => {
  let db: TestDatabase;
  const children: ChildProcess[] = [];
  const urls: string[] = [];
  let skip = false;

  beforeAll(async () => {
    if (!natsUrl || !(await redisReachable(redisUrl))) {
      skip = true;
      console.warn(`\n!!! AUTH REPLICAS TEST SKIPPED: no Redis at ${redisUrl} (set REDIS_URL) or no NATS !!!\n`);
      return;
    }
    db = await createTestDatabase({ migrationsDir: MIGRATIONS_DIR });
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const key = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    // one after the other: the first applies the migrations and creates the administrator
    for (let i = 0; i < 2; i++) {
      const port = await freePort();
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
        cwd: path.join(__dirname, '..'),
        detached: true,
        stdio: ['ignore', 'ignore', 'inherit'],
        env: {
          PATH: process.env.PATH,
          PORT: String(port),
          HOST: '127.0.0.1',
          METRICS_PORT: String(await freePort()),
          DATABASE_URL: db.url,
          NATS_URL: natsUrl,
          NATS_PREFIX: `replicas-${process.pid}-${Date.now()}`,
          REDIS_URL: redisUrl,
          AUTH_LOGIN_LIMIT_STORE: 'redis',
          AUTH_PRIVATE_KEY: key,
          ADMIN_EMAIL: email,
          ADMIN_PASSWORD: password,
          AUTH_LOGIN_ATTEMPTS: '3',
          AUTH_SPRAY_THRESHOLD: '0',
          AUTH_LOGIN_FAILURES_PER_ADDRESS: '0',
          AUTH_LOGIN_FAILURES_PER_ACCOUNT: '0',
          RATE_LIMITER_ENABLED: 'false',
          LOGIN_STALL_TIME: '20',
          LOG_LEVEL: 'error',
        },
      });
      children.push(child);
      urls.push(`http://127.0.0.1:${port}`);
      await waitForPing(port, 60_000);
    }
  }, 150_000);

  afterAll(async () => {
    for (const c of children) if (c.pid && c.exitCode === null) process.kill(-c.pid, 'SIGKILL');
    await Promise.all(children.map((c) => (c.exitCode === null ? new Promise((r) => c.once('exit', r)) : null)));
    await db?.drop();
  }, 60_000);

  const login = async (url: string, pass: string, cookie?: string) => {
    const res = await fetch(`${url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
      body: JSON.stringify({ email, password: pass }),
    });
    const device = res.headers.getSetCookie().find((c) => c.startsWith('vellum_device='));
    return { status: res.status, device: device?.split(';')[0] };
  };

  it('failures at A, B, A lock the untrusted bucket at B; the owner device cookie from A still signs in at B', async () => {
    if (skip) return;
    const [a, b] = urls;
    const trusted = await login(a, password);
    expect(trusted).toEqual({ status: 200, device: expect.stringMatching(/^vellum_device=v1\./) });

    expect((await login(a, 'wrong-password')).status).toBe(401);
    expect((await login(b, 'wrong-password')).status).toBe(401);
    expect((await login(a, 'wrong-password')).status).toBe(401);
    // B saw one failure itself; with the buckets in each process's memory it would let the right password in
    expect((await login(b, password)).status).toBe(401);
    expect((await login(a, password)).status).toBe(401);

    const owner = await login(b, password, trusted.device);
    expect(owner.status).toBe(200);
    // rotated at B, and the rotated cookie works at A
    expect(owner.device).toBeDefined();
    expect(owner.device).not.toBe(trusted.device);
    expect((await login(a, password, owner.device)).status).toBe(200);
  }, 60_000);
});
