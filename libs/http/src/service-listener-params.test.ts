import { IncomingMessage } from 'node:http';
import { Router, type RequestHandler } from 'express';
import request from 'supertest';
import { z } from 'zod';
import { createServiceApp, fastRoute, finishServiceApp, listen, route, sendJson, type Listening, type RouteTable } from './index';

const silent = { error: jest.fn(), warn: jest.fn() };
const who = jest.fn<void, Parameters<RequestHandler>>((req, _res, next) => {
  const role = req.headers['x-role'];
  req.accountability = { user: role ? 'u1' : null, role: typeof role === 'string' ? role : null, admin: false, app: true };
  next();
});

/** A router whose own middleware authenticates (router.use), with fast routes that have parameters. */
function makeApp(observe: jest.Mock) {
  const app = createServiceApp({ observe });
  const router = Router() as Router & RouteTable;
  route(router, 'get', '/other/:id', 'public', (_req, res) => sendJson(res, { data: 'other' }));
  router.use(who);
  const lane = (method: 'get' | 'patch', path: string) => ({ router, method, path, access: 'public' as const, routerBefore: [who] });
  fastRoute(app, lane('get', '/things/:kind'), (req, res) =>
    sendJson(res, { data: req.params, role: req.accountability?.role ?? null, express: Object.getPrototypeOf(req) !== IncomingMessage.prototype }),
  );
  fastRoute(app, { ...lane('patch', '/things/:kind/:id'), body: z.object({ n: z.number() }) }, (req, res) => {
    res.statusCode = 201;
    sendJson(res, { data: { ...req.params, n: req.body.n }, route: req.route?.path, express: Object.getPrototypeOf(req) !== IncomingMessage.prototype });
  });
  app.use(router);
  return { app: finishServiceApp(app, silent), router };
}

let served: Listening;
const observe = jest.fn();
let built: ReturnType<typeof makeApp>;
beforeAll(async () => {
  built = makeApp(observe);
  served = await listen(built.app);
});
afterAll(() => served.close());

describe('fast routes with parameters', () => {
  it('are answered on bare node:http with their parameters, the same answer as express gives', async () => {
    who.mockClear();
    const lane = await request(served.url).patch('/things/book/12').set('x-role', 'editor').send({ n: 3 });
    expect([lane.status, lane.body]).toEqual([201, { data: { kind: 'book', id: '12', n: 3 }, route: '/things/:kind/:id', express: false }]);
    expect(who).toHaveBeenCalledTimes(1); // the router's own middleware, run once by the lane
    const viaExpress = await request(built.app).patch('/things/book/12').set('x-role', 'editor').send({ n: 3 });
    expect(viaExpress.body).toEqual({ ...lane.body, express: true });
    expect(who).toHaveBeenCalledTimes(2); // once on express's path too
    const read = await request(served.url).get('/things/book?x=1').set('x-role', 'viewer');
    expect(read.body).toEqual({ data: { kind: 'book' }, role: 'viewer', express: false });
  });

  it('validate the body, and leave to express what it decodes or does not match', async () => {
    const bad = await request(served.url).patch('/things/book/12').send({ n: 'x' });
    expect([bad.status, bad.body.errors[0].extensions.code]).toEqual([400, 'INVALID_PAYLOAD']);
    expect((await request(served.url).get('/things/a%20b')).body).toEqual({ data: { kind: 'a b' }, role: null, express: true });
    expect((await request(served.url).get('/things/a/b')).status).toBe(404);
    expect((await request(served.url).get('/other/1')).body).toEqual({ data: 'other' });
  });

  it('report their route template to the access log and metrics', async () => {
    observe.mockClear();
    await request(served.url).patch('/things/book/1').send({ n: 1 });
    await new Promise((r) => setTimeout(r, 50));
    expect(observe.mock.calls.map((c) => [c[0], c[1], c[2]])).toEqual([['PATCH', '/things/:kind/:id', 201]]);
  });

  it('are refused where an earlier route of the router could answer the same paths (express would choose it)', () => {
    const app = createServiceApp();
    const router = Router() as Router & RouteTable;
    route(router, 'get', '/things/:x', 'public', () => undefined);
    expect(() => fastRoute(app, { router, path: '/things/:kind', access: 'public' }, () => undefined)).toThrow(/earlier route \/things\/:x/);
    expect(() => fastRoute(app, { router, method: 'patch', path: '/things/:kind', access: 'public' }, () => undefined)).not.toThrow();
  });
});
