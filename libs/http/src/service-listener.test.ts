import { IncomingMessage } from 'node:http';
import { Router, type RequestHandler } from 'express';
import request from 'supertest';
import { z } from 'zod';
import { errors } from '@vellum/errors';
import { createServiceApp, fastRoute, finishServiceApp, listen, sendJson, type Listening, type RouteTable } from './index';

const silent = { error: jest.fn(), warn: jest.fn() };

/** A service app with fast routes whose handlers use node's API only (as the lane gives them the objects). */
function makeApp(observe: jest.Mock) {
  const app = createServiceApp({ observe, trustProxy: ['loopback'] });
  const who: RequestHandler = (req, _res, next) => {
    const role = req.headers['x-role'];
    if (role === 'bad') return next(errors.invalidToken());
    req.accountability = typeof role === 'string' ? { user: 'u1', role, admin: false, app: true } : { user: null, role: null, admin: false, app: false };
    next();
  };
  const router = Router() as Router & RouteTable;
  fastRoute(app, { router, path: '/list', access: 'public', before: [who] }, (req, res) =>
    sendJson(res, { data: req.query, ip: req.ip, route: req.route?.path ?? null, express: Object.getPrototypeOf(req) !== IncomingMessage.prototype }),
  );
  fastRoute(app, { router, path: '/mine', access: 'authenticated', before: [who] }, (_req, res) => sendJson(res, { data: 'mine' }));
  // what the lane's req.query is across requests: the same frozen object for the same text
  const queries: unknown[] = [];
  fastRoute(app, { router, path: '/query', access: 'public' }, (req, res) => {
    queries.push(req.query);
    sendJson(res, {
      frozen: Object.isFrozen(req.query) && Object.isFrozen((req.query as { a?: object }).a ?? {}),
      same: queries.length > 1 && queries.at(-1) === queries.at(-2),
    });
  });
  fastRoute(app, { router, path: '/boom', access: 'public' }, async () => {
    throw errors.invalidQuery('bad');
  });
  fastRoute(app, { router, path: '/crash', access: 'public' }, () => {
    throw new Error('unexpected');
  });
  const body = z.object({ query: z.object({ limit: z.number() }).optional() });
  fastRoute(app, { router, method: 'post', path: '/login', access: 'public', body: z.object({ name: z.string() }) }, (req, res) => {
    res.setHeader('Set-Cookie', [`who=${req.body.name}; Path=/`]);
    sendJson(res, { data: req.body.name });
  });
  fastRoute(app, { router, method: 'search', path: '/list', access: 'public', body, before: [who] }, (req, res) =>
    sendJson(res, { data: req.body.query ?? null }),
  );
  app.use(router);
  return finishServiceApp(app, silent);
}

let served: Listening;
const observe = jest.fn();
let app: ReturnType<typeof makeApp>;
beforeAll(async () => {
  app = makeApp(observe);
  served = await listen(app);
});
afterAll(() => served.close());

const without = (h: Record<string, string>) =>
  Object.fromEntries(Object.entries(h).filter(([k]) => !['date', 'x-request-id', 'connection', 'keep-alive', 'content-length'].includes(k)));

describe('serviceListener (the fast routes on bare node:http)', () => {
  it('answers a fast route with node objects as they are, the same answer as express gives', async () => {
    const lane = await request(served.url).get('/list?a[b]=1&c=2').set('X-Request-Id', 'rq-1').set('X-Forwarded-For', '203.0.113.9');
    expect(lane.status).toBe(200);
    expect(lane.body).toEqual({ data: { a: { b: '1' }, c: '2' }, ip: '203.0.113.9', route: '/list', express: false });
    expect(lane.headers['x-request-id']).toBe('rq-1'); // the common middleware ran
    const viaExpress = await request(app).get('/list?a[b]=1&c=2').set('X-Forwarded-For', '203.0.113.9');
    expect(viaExpress.body).toEqual({ ...lane.body, express: true }); // the same client address (trusted loopback peer)
    expect(without(viaExpress.headers)).toEqual(without(lane.headers));
  });

  it('keeps the access rule, the `before` middleware and the error envelope (thrown, rejected, passed on)', async () => {
    const codes = async (path: string, role?: string) => {
      const r = await request(served.url)
        .get(path)
        .set(role ? { 'x-role': role } : {});
      return [r.status, r.body.errors?.[0]?.extensions?.code ?? r.body.data];
    };
    expect(await codes('/mine')).toEqual([403, 'FORBIDDEN']);
    expect(await codes('/mine', 'editor')).toEqual([200, 'mine']);
    expect(await codes('/list', 'bad')).toEqual([403, 'INVALID_TOKEN']);
    expect(await codes('/boom')).toEqual([400, 'INVALID_QUERY']);
    expect(await codes('/crash')).toEqual([500, 'INTERNAL_SERVER_ERROR']);
    expect(silent.error).toHaveBeenCalledWith(expect.objectContaining({ url: '/crash' }), 'unhandled error');
  });

  it('answers SEARCH with the body validated by the route schema', async () => {
    const ok = await request(served.url)
      .search('/list')
      .send({ query: { limit: 2 } });
    expect([ok.status, ok.body]).toEqual([200, { data: { limit: 2 } }]);
    const bad = await request(served.url)
      .search('/list')
      .send({ query: { limit: 'x' } });
    expect([bad.status, bad.body.errors[0].extensions.code]).toEqual([400, 'INVALID_PAYLOAD']);
  });

  it('parses a query text once: the same frozen req.query for the next request with it, a new one for another text', async () => {
    const ask = async (q: string) => (await request(served.url).get(`/query?${q}`)).body;
    expect(await ask('a[b]=1&c=2')).toEqual({ frozen: true, same: false });
    expect(await ask('a[b]=1&c=2')).toEqual({ frozen: true, same: true });
    expect(await ask('a[b]=2')).toEqual({ frozen: true, same: false });
    expect(await ask(`a[b]=${'x'.repeat(3000)}`)).toEqual({ frozen: false, same: false }); // long texts: parsed each time
  });

  it("answers POST on the lane, its errors (the body parser's too) as express does", async () => {
    const send = (to: string | typeof app, b: string) => request(to).post('/login').set('Content-Type', 'application/json').send(b);
    for (const [b, status, code] of [
      ['{"name":"ann"}', 200, undefined],
      ['{"name":1}', 400, 'INVALID_PAYLOAD'],
      ['{"name":', 400, 'INVALID_PAYLOAD'],
    ] as const) {
      const lane = await send(served.url, b);
      const viaExpress = await send(app, b);
      expect([lane.status, lane.body.errors?.[0]?.extensions?.code]).toEqual([status, code]);
      expect(lane.body).toEqual(viaExpress.body);
      expect(without(lane.headers)).toEqual(without(viaExpress.headers));
    }
    expect((await send(served.url, '{"name":"ann"}')).headers['set-cookie']).toEqual(['who=ann; Path=/']);
  });

  it('leaves everything else to express: HEAD, a trailing slash, unknown paths', async () => {
    const slash = await request(served.url).get('/list/?c=2');
    expect(slash.body).toMatchObject({ data: { c: '2' }, express: true });
    expect((await request(served.url).head('/list')).status).toBe(200);
    const missing = await request(served.url).get('/nope');
    expect([missing.status, missing.body.errors[0].extensions.code]).toEqual([404, 'ROUTE_NOT_FOUND']);
  });

  it('reports each request to the access log / metrics with its route template and status', async () => {
    observe.mockClear();
    await request(served.url).get('/list');
    await request(served.url).get('/boom');
    await new Promise((r) => setTimeout(r, 50));
    expect(observe.mock.calls.map((c) => [c[0], c[1], c[2]])).toEqual([
      ['GET', '/list', 200],
      ['GET', '/boom', 400],
    ]);
  });
});
