// The gateway's operator surface: health (anonymous status vs admin / HEALTH_TOKEN details, cached), readiness,
// liveness, /server/info as Directus answers it, and the API reference page (local assets, strict CSP).
import request from 'supertest';
import { createTokenVerifier } from '@vellum/tokens';
import { testTokens } from '@vellum/testing';
import { createGateway, type Gateway } from '../src/app';
import { REFERENCE_CSP } from '../src/reference/api-reference';
import { silentLogger, sleep, startUpstream, testConfig, type Upstream } from './helpers';

const kit = testTokens();
const HEALTH_TOKEN = 'h-secret-token';
let upstreams: Upstream[] = [];
let gw: Gateway;
const healthHits = () => upstreams.flatMap((u) => u.seen).filter((s) => s.url === '/server/health').length;

beforeAll(async () => {
  upstreams = await Promise.all(['auth', 'revisions-a', 'revisions-b', 'items'].map((n) => startUpstream(n)));
  const [auth, ra, rb, items] = upstreams;
  gw = await createGateway({
    config: testConfig({
      AUTH_URLS: auth.url,
      REVISIONS_URLS: `${ra.url},${rb.url}`,
      ITEMS_URLS: items.url,
      HEALTH_TOKEN,
      PROJECT_NAME: 'Acme CMS',
      RATE_LIMITER_ENABLED: 'true',
      RATE_LIMITER_POINTS: '1000',
      RATE_LIMITER_STORE: 'memory',
    }),
    logger: silentLogger(),
    verifier: createTokenVerifier(kit.keySource),
  });
});
afterAll(async () => {
  await gw?.close();
  await Promise.all(upstreams.map((u) => u.close()));
});

describe('GET /server/health', () => {
  it('tells an anonymous caller the status only, as application/health+json', async () => {
    const r = await request(gw.listener).get('/server/health');
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/^application\/health\+json/);
    expect(JSON.parse(r.text)).toEqual({ status: 'ok' });
    expect(r.text).not.toContain('127.0.0.1');
  });

  it('tells a non-admin user the status only', async () => {
    const r = await request(gw.listener).get('/server/health').set('Authorization', `Bearer ${kit.sign()}`);
    expect(JSON.parse(r.text)).toEqual({ status: 'ok' });
  });

  it('gives an admin the checks per service and replica', async () => {
    const r = await request(gw.listener)
      .get('/server/health')
      .set('Authorization', `Bearer ${kit.sign({ admin_access: true })}`);
    const body = JSON.parse(r.text);
    expect(Object.keys(body.checks).sort()).toEqual(['auth', 'items', 'ratelimit:memory', 'revisions']);
    expect(body.checks.revisions.replicas.map((x: { url: string }) => x.url).sort()).toEqual([upstreams[1].url, upstreams[2].url].sort());
  });

  it('gives the HEALTH_TOKEN holder the checks; a wrong token gets the status', async () => {
    const ok = await request(gw.listener).get('/server/health').set('Authorization', `Bearer ${HEALTH_TOKEN}`);
    expect(JSON.parse(ok.text).checks.auth.status).toBe('ok');
    const wrong = await request(gw.listener).get('/server/health').set('Authorization', `Bearer ${HEALTH_TOKEN}x`);
    expect(JSON.parse(wrong.text)).toEqual({ status: 'ok' });
  });

  it('probes the replicas once per second whatever the request rate', async () => {
    await sleep(1100);
    const before = healthHits();
    await Promise.all(Array.from({ length: 40 }, () => request(gw.listener).get('/server/health').expect(200)));
    for (let i = 0; i < 10; i++) await request(gw.listener).get('/server/health').expect(200);
    // 4 replicas behind the gateway: one fan-out (maybe two if the second ticked over) — never 50.
    const fanOuts = (healthHits() - before) / 4;
    expect(fanOuts).toBeGreaterThanOrEqual(1);
    expect(fanOuts).toBeLessThanOrEqual(2);
  });

  it('answers 503 (status only) when a service has no healthy replica; the gateway stays ready and alive', async () => {
    await upstreams[0].kill();
    try {
      await sleep(1100);
      const r = await request(gw.listener).get('/server/health');
      expect(r.status).toBe(503);
      expect(JSON.parse(r.text)).toEqual({ status: 'error' });
      // readiness is the gateway's own (its rate-limit store): it keeps answering, with 503s for that service
      const ready = await request(gw.listener).get('/server/ready');
      expect(ready.status).toBe(200);
      expect(ready.headers['content-type']).toMatch(/^application\/health\+json/);
      const ping = await request(gw.listener).get('/server/ping');
      expect([ping.status, ping.text]).toEqual([200, 'pong']);
    } finally {
      await upstreams[0].revive();
    }
    await sleep(1100);
    expect((await request(gw.listener).get('/server/health')).status).toBe(200);
  });

  it('is not ready when its own dependency fails', async () => {
    const g = await createGateway({
      config: testConfig({ AUTH_URLS: upstreams[0].url }),
      logger: silentLogger(),
      healthProbes: { messaging: async () => ({ status: 'error', reason: 'gone' }) },
    });
    try {
      expect((await request(g.listener).get('/server/ready')).status).toBe(503);
    } finally {
      await g.close();
    }
  });
});

describe('GET /server/info', () => {
  it('gives anyone the project basics, nothing more', async () => {
    const r = await request(gw.listener).get('/server/info').expect(200);
    expect(r.body.data.project).toMatchObject({ project_name: 'Acme CMS', default_language: 'en-US', public_registration: false });
    expect(Object.keys(r.body.data)).toEqual(['project']);
  });

  it('adds the limits for a signed-in user and the version for an admin', async () => {
    const user = await request(gw.listener).get('/server/info').set('Authorization', `Bearer ${kit.sign()}`).expect(200);
    expect(user.body.data).toMatchObject({ rateLimit: { points: 1000, duration: 1000 }, queryLimit: { default: 100, max: -1 } });
    expect(user.body.data.version).toBeUndefined();
    const admin = await request(gw.listener)
      .get('/server/info')
      .set('Authorization', `Bearer ${kit.sign({ admin_access: true })}`)
      .expect(200);
    expect(admin.body.data.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('treats a bad token as anonymous', async () => {
    const r = await request(gw.listener).get('/server/info').set('Authorization', 'Bearer not-a-token').expect(200);
    expect(Object.keys(r.body.data)).toEqual(['project']);
  });
});

describe('GET /reference', () => {
  it('is an HTML page that loads its script from the gateway only, under a strict CSP', async () => {
    const r = await request(gw.listener).get('/reference').expect(200);
    expect(r.headers['content-type']).toMatch(/^text\/html/);
    expect(r.headers['content-security-policy']).toBe(REFERENCE_CSP);
    expect(REFERENCE_CSP).toContain("default-src 'none'");
    expect(REFERENCE_CSP).toContain("script-src 'self'");
    expect(REFERENCE_CSP).not.toMatch(/https?:|'unsafe-eval'|\*/);
    const refs = [...r.text.matchAll(/\b(?:src|href|spec-url)="([^"]*)"/g)].map((m) => m[1]);
    expect(refs).toEqual(expect.arrayContaining(['/server/specs/oas', '/reference/redoc.standalone.js']));
    for (const ref of refs) expect(ref).toMatch(/^\/[^/]/); // same origin, never another host
    expect(r.text).not.toMatch(/<script>[^<]/); // no inline script
  });

  it('serves the Redoc bundle and the document it renders from the gateway', async () => {
    const js = await request(gw.listener).get('/reference/redoc.standalone.js').expect(200);
    expect(js.headers['content-type']).toMatch(/javascript/);
    expect(js.headers['content-security-policy']).toBe(REFERENCE_CSP);
    expect(js.body.length ?? js.text.length).toBeGreaterThan(100_000);
    const oas = await request(gw.listener).get('/server/specs/oas').expect(200);
    expect(oas.body.openapi).toMatch(/^3\./);
  });
});
