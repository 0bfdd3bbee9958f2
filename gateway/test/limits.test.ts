import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { redisReachable, testRedisUrl } from '@vellum/testing';
import { sleep, gatewaysOverRevisions } from './helpers';

const make = gatewaysOverRevisions();
const ip = () => `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;

describe('rate limiting (memory store)', () => {
  it('answers 429 REQUESTS_EXCEEDED with Retry-After past the limit, per client IP, then recovers', async () => {
    const gw = await make({ RATE_LIMITER_ENABLED: 'true', RATE_LIMITER_POINTS: '3', RATE_LIMITER_DURATION: '1s', TRUST_PROXY: 'loopback' });
    const client = ip();
    // four at once, so all fall in one 1 s window however slow the machine: three pass, one is refused
    const four = await Promise.all(Array.from({ length: 4 }, () => request(gw.listener).get('/revisions').set('X-Forwarded-For', client)));
    expect(four.map((x) => x.status).sort()).toEqual([200, 200, 200, 429]);
    const r = four.find((x) => x.status === 429)!;
    expect(r.headers['retry-after']).toBe('1');
    expect(r.body.errors[0].extensions).toMatchObject({ code: 'REQUESTS_EXCEEDED', limit: 3 });
    expect(Date.parse(r.body.errors[0].extensions.reset)).toBeGreaterThan(Date.now() - 10);
    // another client (through the trusted loopback proxy) is not affected; ping and health never limited
    await request(gw.listener).get('/revisions').set('X-Forwarded-For', ip()).expect(200);
    await request(gw.listener).get('/server/ping').set('X-Forwarded-For', client).expect(200);
    await sleep(1050);
    await request(gw.listener).get('/revisions').set('X-Forwarded-For', client).expect(200);
  });

  it('ignores X-Forwarded-For from an untrusted peer (TRUST_PROXY=false): the socket address counts', async () => {
    const gw = await make({ RATE_LIMITER_ENABLED: 'true', RATE_LIMITER_POINTS: '2', RATE_LIMITER_DURATION: '5s', TRUST_PROXY: 'false' });
    await request(gw.listener).get('/revisions').set('X-Forwarded-For', ip()).expect(200);
    await request(gw.listener).get('/revisions').set('X-Forwarded-For', ip()).expect(200);
    await request(gw.listener).get('/revisions').set('X-Forwarded-For', ip()).expect(429);
  });
});

const redisUrl = testRedisUrl();

describe('rate limiting (redis store, shared by gateway replicas)', () => {
  let available = false;
  beforeAll(async () => {
    available = await redisReachable(redisUrl);
    if (!available) {
      console.warn(`\n!!! REDIS RATE-LIMIT TEST SKIPPED: no Redis at ${redisUrl} (set REDIS_URL to run it) !!!\n`);
    }
  });

  it('counts across two gateways sharing Redis → 429 + Retry-After', async () => {
    if (!available) return;
    const env = { RATE_LIMITER_ENABLED: 'true', RATE_LIMITER_POINTS: '4', RATE_LIMITER_DURATION: '2s', REDIS_URL: redisUrl, TRUST_PROXY: 'loopback' };
    const a = await make(env);
    const b = await make(env);
    const client = `${ip()}-${randomUUID()}`.split('-')[0];
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push(
        (
          await request(i % 2 ? b.listener : a.listener)
            .get('/revisions')
            .set('X-Forwarded-For', client)
        ).status,
      );
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    const r = await request(a.listener).get('/revisions').set('X-Forwarded-For', client);
    expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(r.headers['retry-after'])).toBeLessThanOrEqual(2);
    expect((await a.health()).checks['ratelimit:redis'].status).toBe('ok');
  });

  it('fails open (with a warn in health) when Redis is down', async () => {
    const gw = await make({
      RATE_LIMITER_ENABLED: 'true',
      RATE_LIMITER_POINTS: '1',
      RATE_LIMITER_DURATION: '10s',
      REDIS_URL: 'redis://127.0.0.1:1',
      TRUST_PROXY: 'loopback',
    });
    const client = ip();
    const t = performance.now();
    for (let i = 0; i < 3; i++) await request(gw.listener).get('/revisions').set('X-Forwarded-For', client).expect(200);
    expect(performance.now() - t).toBeLessThan(3000); // no request waits for Redis
    const health = await gw.health();
    expect(health.checks['ratelimit:redis']).toMatchObject({ status: 'warn', reason: expect.stringMatching(/fail open/) });
    expect(health.status).toBe('warn');
  });
});

describe('CORS, security headers, body limit', () => {
  it('answers preflights for allowed origins with credentials; nothing for others', async () => {
    const gw = await make({ CORS_ENABLED: 'true', CORS_ORIGIN: 'https://app.example.com,https://b.example.com' });
    const pre = await request(gw.listener)
      .options('/revisions')
      .set('Origin', 'https://app.example.com')
      .set('Access-Control-Request-Method', 'GET')
      .set('Access-Control-Request-Headers', 'authorization');
    expect(pre.status).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBe('https://app.example.com');
    expect(pre.headers['access-control-allow-credentials']).toBe('true');
    expect(pre.headers['access-control-allow-methods']).toContain('SEARCH');
    expect(pre.headers['access-control-allow-headers']).toMatch(/Authorization/);
    const get = await request(gw.listener).get('/revisions').set('Origin', 'https://app.example.com');
    expect(get.headers['access-control-allow-origin']).toBe('https://app.example.com');
    expect(get.headers['access-control-expose-headers']).toContain('X-Request-Id');
    // an item's version and reading one's own write work from another origin
    expect(get.headers['access-control-expose-headers']).toMatch(/ETag.*X-Vellum-Version.*X-Vellum-Behind/);
    const conditional = await request(gw.listener)
      .options('/items/articles/1')
      .set('Origin', 'https://app.example.com')
      .set('Access-Control-Request-Method', 'PATCH')
      .set('Access-Control-Request-Headers', 'if-match');
    expect(conditional.headers['access-control-allow-headers']).toMatch(/If-Match/);
    expect(conditional.headers['access-control-allow-headers']).toMatch(/X-Vellum-Min-Version/);
    const evil = await request(gw.listener).get('/revisions').set('Origin', 'https://evil.example.com');
    expect(evil.headers['access-control-allow-origin']).toBeUndefined();
    const off = await make({});
    expect((await request(off.listener).get('/revisions').set('Origin', 'https://app.example.com')).headers['access-control-allow-origin']).toBeUndefined();
  });

  it('sets security headers, HSTS only for an https public URL', async () => {
    const plain = await request((await make({})).listener).get('/revisions');
    expect(plain.headers['x-content-type-options']).toBe('nosniff');
    expect(plain.headers['x-frame-options']).toBe('DENY');
    expect(plain.headers['content-security-policy']).toBe("frame-ancestors 'none'");
    expect(plain.headers['referrer-policy']).toBe('no-referrer');
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    const https = await request((await make({ PUBLIC_URL: 'https://api.example.com' })).listener).get('/server/ping');
    expect(https.headers['strict-transport-security']).toMatch(/max-age=\d+/);
  });

  it('refuses GraphQL bodies over 1 MB with 413', async () => {
    const gw = await make({});
    const r = await request(gw.listener)
      .post('/graphql/system')
      .set('content-type', 'application/json')
      .send(JSON.stringify({ query: 'x'.repeat(1024 * 1024 + 1) }));
    expect([r.status, r.body.errors[0].extensions.code]).toEqual([413, 'CONTENT_TOO_LARGE']);
  });
});
