import request from 'supertest';
import { createMetricsRegistry, type Registry } from '@vellum/metrics';
import { ADMIN, harness, loginAs, type Harness } from './helpers';

// Issue 20.2 and 20.3 on the auth service: health tells strangers the status only (admins and the HEALTH_TOKEN
// holder the checks), and logins are counted by outcome in the process registry, with the HTTP histogram.
describe('auth operator surface', () => {
  let h: Harness;
  let registry: Registry;
  beforeAll(async () => {
    registry = createMetricsRegistry();
    h = await harness({ HEALTH_TOKEN: 'health-token-1' }, { metrics: registry });
  });
  afterAll(() => h?.close());

  it('GET /server/health: status for anonymous callers and bad tokens, the checks for an admin and the token', async () => {
    const anon = await request(h.app).get('/server/health').expect(200);
    expect(anon.headers['content-type']).toMatch(/^application\/health\+json/);
    expect(JSON.parse(anon.text)).toEqual({ status: 'ok' });
    expect(JSON.parse((await request(h.app).get('/server/health').set('Authorization', 'Bearer nope')).text)).toEqual({ status: 'ok' });
    const token = (await loginAs(h.app)).body.data.access_token;
    const admin = JSON.parse((await request(h.app).get('/server/health').set('Authorization', `Bearer ${token}`)).text);
    expect(admin.checks.database.status).toBe('ok');
    const holder = JSON.parse((await request(h.app).get('/server/health').set('Authorization', 'Bearer health-token-1')).text);
    expect(holder.checks.database.status).toBe('ok');
    expect((await request(h.app).get('/server/ready')).status).toBe(200);
  });

  it('counts logins by outcome and times them by route template', async () => {
    const before = await registry.getSingleMetricAsString('vellum_auth_logins_total');
    expect(before).not.toMatch(/outcome="invalid_credentials"/);
    await request(h.app).post('/auth/login').send({ email: ADMIN.email, password: 'not-the-password' }).expect(401);
    await request(h.app).post('/auth/login').send({ email: 'nobody@example.com', password: 'not-the-password' }).expect(401);
    await loginAs(h.app);
    const text = await registry.metrics();
    expect(text).toMatch(/vellum_auth_logins_total\{outcome="invalid_credentials"\} 2/);
    expect(text).toMatch(/vellum_auth_logins_total\{outcome="success"\} [2-9]/);
    expect(text).toMatch(/vellum_http_request_duration_seconds_count\{service="auth",method="POST",route="\/auth\/login",status="401"\} 2/);
    expect(text).toMatch(/vellum_db_pool_connections\{service="auth",pool="main",state="idle"\} \d+/);
  });
});
