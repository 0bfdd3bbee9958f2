import request from 'supertest';
import { Router, type RequestHandler } from 'express';
import { z } from 'zod';
import { errors } from '@vellum/errors';
import { createServiceApp, fastRoute, finishServiceApp, sendJson, type RouteTable } from './index';

const silent = { error: jest.fn(), warn: jest.fn() };

function makeApp() {
  const app = createServiceApp();
  const walked = jest.fn();
  // a layer between the lane and the routes: the router path walks it, the lane does not
  app.use((_req, _res, next) => {
    walked();
    next();
  });
  const who: RequestHandler = (req, _res, next) => {
    const role = req.get('x-role');
    if (role === 'bad') return next(errors.invalidToken());
    req.accountability = role ? { user: 'u1', role, admin: false, app: true } : { user: null, role: null, admin: false, app: false };
    next();
  };
  const router = Router() as Router & RouteTable;
  fastRoute(app, { router, path: '/list', access: 'public', before: [who] }, (req, res) => sendJson(res, { data: req.query, route: req.route?.path ?? null }));
  fastRoute(app, { router, path: '/mine', access: 'authenticated', before: [who] }, (_req, res) => sendJson(res, { data: 'mine' }));
  fastRoute(app, { router, path: '/boom', access: 'public' }, async () => {
    throw errors.invalidQuery('bad');
  });
  const body = z.object({ query: z.object({ limit: z.number() }).optional() });
  fastRoute(app, { router, method: 'search', path: '/list', access: 'public', body, before: [who] }, (req, res) =>
    sendJson(res, { data: req.body.query ?? null }),
  );
  app.use(router);
  return { app: finishServiceApp(app, silent), router, walked };
}

describe('fast lane', () => {
  it('answers GET of a fast route without walking the router stack, with the same answer as the router', async () => {
    const { app, router, walked } = makeApp();
    const fast = await request(app).get('/list?a[b]=1').set('X-Request-Id', 'rq-1');
    expect(fast.status).toBe(200);
    expect(fast.body).toEqual({ data: { a: { b: '1' } }, route: '/list' });
    expect(fast.headers['x-request-id']).toBe('rq-1'); // the common middleware ran
    expect(walked).not.toHaveBeenCalled();
    // a trailing slash goes the router's way: the same handlers, the same answer
    const slow = await request(app).get('/list/?a[b]=1');
    expect(walked).toHaveBeenCalledTimes(1);
    expect(slow.body).toEqual(fast.body);
    expect(router.routes).toContainEqual({ method: 'get', path: '/list', access: 'public' });
  });

  it('keeps the access rule, the `before` middleware and the error envelope', async () => {
    const { app, walked } = makeApp();
    expect((await request(app).get('/mine')).body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect((await request(app).get('/mine').set('x-role', 'editor')).body).toEqual({ data: 'mine' });
    const bad = await request(app).get('/list').set('x-role', 'bad');
    expect([bad.status, bad.body.errors[0].extensions.code]).toEqual([403, 'INVALID_TOKEN']);
    const boom = await request(app).get('/boom');
    expect([boom.status, boom.body.errors[0].extensions.code]).toEqual([400, 'INVALID_QUERY']);
    expect(walked).not.toHaveBeenCalled();
  });

  it('answers SEARCH with the body validated by the route schema', async () => {
    const { app, walked } = makeApp();
    const ok = await request(app)
      .search('/list')
      .send({ query: { limit: 2 } });
    expect([ok.status, ok.body]).toEqual([200, { data: { limit: 2 } }]);
    const bad = await request(app)
      .search('/list')
      .send({ query: { limit: 'x' } });
    expect([bad.status, bad.body.errors[0].extensions.code]).toEqual([400, 'INVALID_PAYLOAD']);
    expect(walked).not.toHaveBeenCalled();
  });
});

// Compile-time: a fast route's handler gets node's request and response, so express's helpers do not type-check
// (the type-check of `npm test` fails when one of these lines compiles).
export function misuseDoesNotCompile(): void {
  const app = createServiceApp();
  const router = Router() as Router & RouteTable;
  // @ts-expect-error res.json is express's, not on the lane's response
  fastRoute(app, { router, path: '/a', access: 'public' }, (_req, res) => res.json({}));
  // @ts-expect-error req.get is express's, not on the lane's request
  fastRoute(app, { router, path: '/b', access: 'public' }, (req, res) => sendJson(res, req.get('x')));
}
