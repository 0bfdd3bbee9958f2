import request from 'supertest';
import { Router } from 'express';
import { errors } from '@vellum/errors';
import { currentRequestId, propagationHeaders } from '@vellum/logger';
import { parseTraceparent } from '@vellum/tracing';
import { cachedQueryParser, createServiceApp, extendedQueryParser, finishServiceApp, route, type RouteTable } from './index';

const silent = { error: jest.fn(), warn: jest.fn() };

function makeApp() {
  const app = createServiceApp();
  const router = Router() as Router & RouteTable;
  app.use((req, _res, next) => {
    const role = req.get('x-test-role');
    req.accountability = role ? { user: 'u1', role, admin: role === 'admin', app: true } : { user: null, role: null, admin: false, app: false };
    next();
  });
  route(router, 'get', '/open', 'public', (_req, res) => res.json({ data: currentRequestId() }));
  route(router, 'get', '/mine', 'authenticated', (_req, res) => res.json({ data: 'ok' }));
  route(router, 'get', '/admin', 'admin', (_req, res) => res.json({ data: 'ok' }));
  route(router, 'post', '/echo', 'public', (req, res) => res.json({ data: req.body }));
  route(router, 'get', '/boom', 'public', async () => {
    throw new Error('secret detail');
  });
  route(router, 'get', '/known', 'public', async () => {
    throw errors.invalidQuery('limit must be an integer');
  });
  route(router, 'get', '/propagate', 'public', async (_req, res) => {
    const first = propagationHeaders();
    await new Promise((r) => setImmediate(r));
    res.json({ data: [first, propagationHeaders()] });
  });
  route(router, 'get', '/q', 'public', (req, res) => res.json({ data: req.query }));
  app.use(router);
  return { app: finishServiceApp(app, silent), router };
}

describe('service app', () => {
  const { app, router } = makeApp();

  it('continues the caller’s trace with one span id of its own per request (tracing off: made on first read)', async () => {
    const incoming = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    const r = await request(app).get('/propagate').set('X-Request-Id', 'abc-2').set('traceparent', incoming);
    const [first, again] = r.body.data as Record<string, string>[];
    expect(first).toEqual(again);
    expect(first!['x-request-id']).toBe('abc-2');
    const t = parseTraceparent(first!.traceparent)!;
    expect(t).toMatchObject({ traceId: '4bf92f3577b34da6a3ce929d0e0e4736', flags: '01' });
    expect(t.spanId).not.toBe('00f067aa0ba902b7');
    const other = parseTraceparent(
      ((await request(app).get('/propagate').set('traceparent', incoming)).body.data as Record<string, string>[])[0]!.traceparent,
    )!;
    expect(other.spanId).not.toBe(t.spanId);
    const fresh = parseTraceparent(((await request(app).get('/propagate')).body.data as Record<string, string>[])[0]!.traceparent)!;
    expect(fresh.traceId).not.toBe(t.traceId);
    expect(fresh.flags).toBe('01');
  });

  it('echoes a sane request id and carries it in the async context', async () => {
    const r = await request(app).get('/open').set('X-Request-Id', 'abc-1');
    expect(r.headers['x-request-id']).toBe('abc-1');
    expect(r.body.data).toBe('abc-1');
    const g = await request(app).get('/open');
    expect(g.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('enforces the declared access rule', async () => {
    expect((await request(app).get('/mine')).status).toBe(403);
    expect((await request(app).get('/mine').set('x-test-role', 'editor')).status).toBe(200);
    expect((await request(app).get('/admin').set('x-test-role', 'editor')).body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect((await request(app).get('/admin').set('x-test-role', 'admin')).status).toBe(200);
    expect(router.routes).toContainEqual({ method: 'get', path: '/admin', access: 'admin' });
  });

  it('sends no ETag and answers conditional requests in full (docs/api.md §1)', async () => {
    const r = await request(app).get('/open');
    expect(r.status).toBe(200);
    expect(r.headers.etag).toBeUndefined();
    const again = await request(app).get('/open').set('If-None-Match', '*');
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(expect.any(String));
  });

  it('parses a query text once, however often and in however many requests it is read', async () => {
    const { app: a, router: r } = makeApp();
    const parse = jest.fn(extendedQueryParser);
    a.set('query parser', cachedQueryParser(parse));
    route(r, 'get', '/thrice', 'public', (req, res) => res.json({ data: [req.query, req.query, req.query] }));
    const res = await request(a).get('/thrice?x[y]=1');
    expect(res.body.data).toEqual(Array(3).fill({ x: { y: '1' } }));
    expect(parse).toHaveBeenCalledTimes(1);
    await request(a).get('/thrice?x[y]=1');
    expect(parse).toHaveBeenCalledTimes(1);
    const q = await request(a).get('/thrice?x=2');
    expect(q.body.data).toEqual(Array(3).fill({ x: '2' }));
    expect(parse).toHaveBeenCalledTimes(2);
  });

  it('answers unknown routes with ROUTE_NOT_FOUND', async () => {
    const r = await request(app).get('/nope');
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ errors: [{ message: "Route /nope doesn't exist.", extensions: { code: 'ROUTE_NOT_FOUND' } }] });
  });

  it('hides unexpected errors behind a generic 500 with the request id', async () => {
    const r = await request(app).get('/boom').set('X-Request-Id', 'rid-9');
    expect(r.status).toBe(500);
    expect(JSON.stringify(r.body)).not.toMatch(/secret detail/);
    expect(r.body.errors[0].extensions).toEqual({ code: 'INTERNAL_SERVER_ERROR', request_id: 'rid-9' });
    expect(silent.error).toHaveBeenCalled();
  });

  it('keeps known errors with their extensions', async () => {
    const r = await request(app).get('/known');
    expect(r.status).toBe(400);
    expect(r.body.errors[0].extensions).toEqual({ code: 'INVALID_QUERY', reason: 'limit must be an integer' });
  });

  it('rejects malformed JSON and oversized bodies in the envelope', async () => {
    const bad = await request(app).post('/echo').set('content-type', 'application/json').send('{"a":');
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].extensions.code).toBe('INVALID_PAYLOAD');
    const big = await request(app)
      .post('/echo')
      .send({ a: 'x'.repeat(1_100_000) });
    expect(big.status).toBe(413);
    expect(big.body.errors[0].extensions.code).toBe('CONTENT_TOO_LARGE');
  });

  it('parses bracket-form query strings', async () => {
    const r = await request(app).get('/q?filter[collection][_eq]=a&fields[]=id&fields[]=item');
    expect(r.body.data).toEqual({ filter: { collection: { _eq: 'a' } }, fields: ['id', 'item'] });
  });
});

describe('client address (TRUST_PROXY)', () => {
  const ipApp = (trustProxy?: Parameters<typeof createServiceApp>[0]) => {
    const app = createServiceApp(trustProxy);
    app.get('/ip', (req, res) => res.json({ ip: req.ip }));
    return app;
  };

  it('trusts nobody by default: a spoofed X-Forwarded-For is ignored, the socket address is the client', async () => {
    const r = await request(ipApp()).get('/ip').set('X-Forwarded-For', '203.0.113.9');
    expect(r.body.ip).toMatch(/^(::ffff:)?127\.0\.0\.1$|^::1$/);
  });

  it('believes X-Forwarded-For from a configured proxy only', async () => {
    const trusted = await request(ipApp({ trustProxy: ['loopback'] }))
      .get('/ip')
      .set('X-Forwarded-For', '203.0.113.9');
    expect(trusted.body.ip).toBe('203.0.113.9');
    const other = await request(ipApp({ trustProxy: ['10.0.0.0/8'] }))
      .get('/ip')
      .set('X-Forwarded-For', '203.0.113.9');
    expect(other.body.ip).not.toBe('203.0.113.9');
  });
});
