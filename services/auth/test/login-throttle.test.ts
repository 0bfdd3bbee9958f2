// Issue 17.2: failed logins per address and per (address, account), 429 REQUESTS_EXCEEDED with Retry-After,
// audited, reset by a success; counted in memory or shared by auth replicas through Redis.
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { createLimiterStore, type LimiterStore } from '@vellum/limits';
import { createApp } from '../src/app';
import { ADMIN, code, harness, type Harness } from './helpers';
import { redisReachable, silentLogger, testRedisUrl } from '@vellum/testing';

const LIMITS = {
  TRUST_PROXY: 'loopback', // the test plays the gateway: X-Forwarded-For names the client
  AUTH_LOGIN_FAILURES_PER_ADDRESS: '6',
  AUTH_LOGIN_FAILURES_PER_ACCOUNT: '3',
  AUTH_LOGIN_FAILURE_WINDOW: '1m',
  AUTH_LOGIN_ATTEMPTS: '1000', // the account lock stays out of the way
};
let n = 0;
/** A fresh client address per call. */
const address = () => `198.51.100.${++n}`;
const loginFrom = (app: Harness['app'], ip: string, email: string, password: string) =>
  request(app).post('/auth/login').set('X-Forwarded-For', ip).send({ email, password });
const throttledAudits = async (h: Harness, ip: string) =>
  (
    await h.sql<{ n: number }>(`SELECT count(*)::int AS n FROM outbox WHERE subject = 'items.vellum_users.login_throttled' AND payload->'actor'->>'ip' = $1`, [
      ip,
    ])
  )[0].n;

function throttles(make: () => Promise<Harness>) {
  let h: Harness;
  beforeAll(async () => {
    h = await make();
  });
  afterAll(() => h?.close());

  it('per (address, account): past the budget even the right password answers 429 with Retry-After, audited once', async () => {
    const ip = address();
    for (let i = 0; i < 3; i++) expect(code(await loginFrom(h.app, ip, ADMIN.email, 'wrong-password'))).toBe('INVALID_CREDENTIALS');
    const refused = await loginFrom(h.app, ip, ADMIN.email, ADMIN.password);
    expect(refused.status).toBe(429);
    expect(refused.body.errors[0].extensions).toMatchObject({ code: 'REQUESTS_EXCEEDED', limit: 3 });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(50);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    // the account keyed case-insensitively; refused attempts are not counted again nor audited again
    expect((await loginFrom(h.app, ip, ADMIN.email.toUpperCase(), 'wrong-password')).status).toBe(429);
    expect(await throttledAudits(h, ip)).toBe(1);
    // the same account from another address, and another account from this one, are not affected
    expect((await loginFrom(h.app, address(), ADMIN.email, ADMIN.password)).status).toBe(200);
    expect(code(await loginFrom(h.app, ip, 'someone-else@example.com', 'wrong-password'))).toBe('INVALID_CREDENTIALS');
  });

  it('per address: failures over many accounts spend the address budget', async () => {
    const ip = address();
    for (let i = 0; i < 6; i++) expect((await loginFrom(h.app, ip, `nobody-${i}-${randomUUID()}@example.com`, 'wrong-password')).status).toBe(401);
    const refused = await loginFrom(h.app, ip, ADMIN.email, ADMIN.password);
    expect(refused.status).toBe(429);
    expect(refused.body.errors[0].extensions).toMatchObject({ code: 'REQUESTS_EXCEEDED', limit: 6 });
    expect(await throttledAudits(h, ip)).toBe(1);
    expect((await loginFrom(h.app, address(), ADMIN.email, ADMIN.password)).status).toBe(200);
  });

  it('a successful login resets the (address, account) count', async () => {
    const ip = address();
    // 2 + 2 failures: over the account budget (3) unless the success between them reset it; under the address one (6)
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 2; i++) expect((await loginFrom(h.app, ip, ADMIN.email, 'wrong-password')).status).toBe(401);
      expect((await loginFrom(h.app, ip, ADMIN.email, ADMIN.password)).status).toBe(200);
    }
  });

  return () => h;
}

describe('memory store (one auth process)', () => {
  throttles(() => harness(LIMITS));
});

const redisUrl = testRedisUrl();
const redisStore = async (prefix: string): Promise<LimiterStore> => {
  const store = createLimiterStore({ redisUrl, prefix });
  const end = Date.now() + 3000;
  while ((await store.health()).status !== 'ok') {
    if (Date.now() > end) throw new Error(`Redis at ${redisUrl} not ready`);
    await new Promise((r) => setTimeout(r, 25));
  }
  return store;
};

describe('redis store (shared by auth replicas)', () => {
  let available = false;
  const prefix = `vellum-test:${randomUUID()}:`;
  const stores: LimiterStore[] = [];
  beforeAll(async () => {
    available = await redisReachable(redisUrl);
    if (!available) console.warn(`\n!!! REDIS LOGIN-LIMIT TESTS SKIPPED: no Redis at ${redisUrl} (set REDIS_URL) !!!\n`);
  });
  afterAll(async () => {
    for (const s of stores) await s.close();
  });

  describe('one replica', () => {
    const h = throttles(async () => {
      if (!available) return harness(LIMITS);
      const store = await redisStore(prefix);
      stores.push(store);
      return harness(LIMITS, { limiterStore: store });
    });

    it('failures at one replica are refused at another (same Redis)', async () => {
      if (!available) return;
      const store = await redisStore(prefix);
      stores.push(store);
      const other = createApp({ db: h().prisma, config: h().config, logger: silentLogger('auth-test'), limiterStore: store });
      try {
        const ip = address();
        for (let i = 0; i < 3; i++) expect((await loginFrom(i % 2 ? other.app : h().app, ip, ADMIN.email, 'wrong-password')).status).toBe(401);
        expect((await loginFrom(other.app, ip, ADMIN.email, ADMIN.password)).status).toBe(429);
        expect((await loginFrom(h().app, ip, ADMIN.email, ADMIN.password)).status).toBe(429);
      } finally {
        await other.close();
      }
    });

    it('the per-IP limit on /auth/* (RATE_LIMITER_*) is counted in the same store: replicas share the budget', async () => {
      if (!available) return;
      const store = await redisStore(`vellum-test:${randomUUID()}:`);
      stores.push(store);
      const config = { ...h().config, RATE_LIMITER_ENABLED: true, RATE_LIMITER_POINTS: 3, RATE_LIMITER_DURATION: 10_000 };
      const make = () => createApp({ db: h().prisma, config, logger: silentLogger('auth-test'), limiterStore: store });
      const [a, b] = [make(), make()];
      try {
        const ip = address();
        const statuses: number[] = [];
        for (let i = 0; i < 5; i++)
          statuses.push(
            (
              await request(i % 2 ? b.app : a.app)
                .post('/auth/login')
                .set('X-Forwarded-For', ip)
                .send({})
            ).status,
          );
        expect(statuses).toEqual([400, 400, 400, 429, 429]);
      } finally {
        await Promise.all([a.close(), b.close()]);
      }
    });
  });
});

it('is configurable: the budgets are off with 0, and AUTH_LOGIN_LIMIT_STORE=redis needs REDIS_URL', async () => {
  const h = await harness({ ...LIMITS, AUTH_LOGIN_FAILURES_PER_ACCOUNT: '0', AUTH_LOGIN_FAILURES_PER_ADDRESS: '0' });
  try {
    const ip = address();
    for (let i = 0; i < 8; i++) expect((await loginFrom(h.app, ip, ADMIN.email, 'wrong-password')).status).toBe(401);
    expect((await loginFrom(h.app, ip, ADMIN.email, ADMIN.password)).status).toBe(200);
    expect(() =>
      createApp({ db: h.prisma, config: { ...h.config, AUTH_LOGIN_LIMIT_STORE: 'redis', REDIS_URL: undefined }, logger: silentLogger('t') }),
    ).toThrow(/REDIS_URL/);
  } finally {
    await h.close();
  }
});
