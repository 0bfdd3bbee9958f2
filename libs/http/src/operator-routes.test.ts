import request from 'supertest';
import { Router } from 'express';
import { createServiceApp, finishServiceApp, route, serverRoutes, type RouteTable } from './index';
import { cachedHealth, type HealthReport } from './health';

const silent = { error: jest.fn(), warn: jest.fn() };

function makeApp(probe: () => Promise<'ok' | 'error'>) {
  const lines: Record<string, unknown>[] = [];
  const observed: unknown[][] = [];
  const app = createServiceApp({
    service: 'test',
    logger: { info: (o: object) => lines.push(o as Record<string, unknown>) },
    observe: (...a) => observed.push(a),
  });
  app.use((req, _res, next) => {
    if (req.get('x-user')) req.accountability = { user: req.get('x-user')!, role: 'r', admin: false, app: true };
    next();
  });
  const router = Router() as Router & RouteTable;
  let probes = 0;
  serverRoutes(router, { db: async () => (probes++, probe()) }, { healthToken: 'tok', canSeeDetails: (req) => req.get('x-admin') === 'yes' });
  route(router, 'get', '/things/:id', 'public', (req, res) => res.json({ data: req.params.id }));
  app.use(router);
  finishServiceApp(app, silent);
  return { app, lines, observed, probes: () => probes, routes: router.routes };
}

describe('access log', () => {
  it('writes one line per request with the route template, status, duration, request id and user id, never the query or a token', async () => {
    const { app, lines, observed } = makeApp(async () => 'ok');
    await request(app).get('/things/42?access_token=secret-token&password=p').set('X-Request-Id', 'rid-1').set('x-user', 'u-7').expect(200);
    await request(app).get('/nowhere').set('Authorization', 'Bearer secret-token').expect(404);
    await new Promise((r) => setImmediate(r));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ method: 'GET', route: '/things/:id', status: 200, requestId: 'rid-1', userId: 'u-7' });
    expect(typeof lines[0].ms).toBe('number');
    expect(lines[1]).toMatchObject({ route: 'unmatched', status: 404, userId: null });
    expect(JSON.stringify(lines)).not.toMatch(/secret-token|\/things\/42|password|access_token/);
    expect(observed.map((o) => o.slice(0, 3))).toEqual([
      ['GET', '/things/:id', 200],
      ['GET', 'unmatched', 404],
    ]);
  });
});

describe('operator routes', () => {
  it('declare their access rule', () => {
    const { routes } = makeApp(async () => 'ok');
    expect(routes.map((r) => `${r.method} ${r.path} ${r.access}`)).toEqual(
      expect.arrayContaining(['get /server/ping public', 'get /server/ready public', 'get /server/health public']),
    );
  });

  it('health: status only for anonymous callers, the checks for the token holder and whom canSeeDetails admits', async () => {
    const { app } = makeApp(async () => 'ok');
    const anon = await request(app).get('/server/health').expect(200);
    expect(anon.headers['content-type']).toMatch(/^application\/health\+json/);
    expect(JSON.parse(anon.text)).toEqual({ status: 'ok' });
    expect(JSON.parse((await request(app).get('/server/health').set('Authorization', 'Bearer tok')).text).checks.db.status).toBe('ok');
    expect(JSON.parse((await request(app).get('/server/health').set('Authorization', 'Bearer tok2')).text)).toEqual({ status: 'ok' });
    expect(JSON.parse((await request(app).get('/server/health').set('x-admin', 'yes')).text).checks.db.status).toBe('ok');
  });

  it('ready and health answer 503 when a check fails; ping does not look', async () => {
    const { app } = makeApp(async () => 'error');
    expect((await request(app).get('/server/health')).status).toBe(503);
    expect((await request(app).get('/server/ready')).status).toBe(503);
    expect((await request(app).get('/server/ping')).text).toBe('pong');
  });

  it('probe once per second whatever the request rate', async () => {
    const { app, probes } = makeApp(async () => 'ok');
    await Promise.all(Array.from({ length: 30 }, () => request(app).get('/server/health')));
    await Promise.all(Array.from({ length: 10 }, () => request(app).get('/server/ready')));
    expect(probes()).toBe(1);
  });
});

describe('cachedHealth', () => {
  it('reuses a report for ttlMs, then runs again; a failed run is not kept', async () => {
    let t = 0;
    let runs = 0;
    const report: HealthReport = { status: 'ok', checks: {} };
    const h = cachedHealth(
      async () => (runs++, report),
      1000,
      () => t,
    );
    await h();
    t = 999;
    await h();
    expect(runs).toBe(1);
    t = 1000;
    await h();
    expect(runs).toBe(2);
    const failing = cachedHealth(
      async () => {
        runs++;
        throw new Error('x');
      },
      1000,
      () => t,
    );
    await expect(failing()).rejects.toThrow('x');
    await new Promise((r) => setImmediate(r));
    await expect(failing()).rejects.toThrow('x');
    expect(runs).toBe(4);
  });
});
