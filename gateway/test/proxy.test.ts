import http from 'node:http';
import request from 'supertest';
import { expectUnavailableWithin, silentLogger, startUpstream, testConfig, sleep, type Upstream, listenGateway, type ListeningGateway } from './helpers';

const HEALTH_TOKEN = 'health-secret';
/** The detailed report (the HEALTH_TOKEN view), past the 1 s cache of the previous one. */
const detailedHealth = async (base: string) => {
  await sleep(1100);
  return request(base).get('/server/health').set('Authorization', `Bearer ${HEALTH_TOKEN}`);
};

let auth: Upstream;
let revisionsA: Upstream;
let revisionsB: Upstream;
let items: Upstream;
let gateway: ListeningGateway;
let base: string;
/** Resolves when the streaming-upload upstream has seen its first body chunk. */
let firstChunkSeen: () => void = () => {};

beforeAll(async () => {
  auth = await startUpstream('auth', (app) => {
    app.post('/auth/login', (req, res) => {
      res.cookie('vellum_refresh_token', 'r1', { httpOnly: true, path: '/' });
      res.cookie('vellum_session_token', 's1', { httpOnly: true, path: '/' });
      res.json({ data: { cookie: req.headers.cookie ?? null } });
    });
    app.get('/users/me', (req, res) => {
      res.json({ data: { cookie: req.headers.cookie ?? null, authorization: req.headers.authorization ?? null } });
    });
  });
  const revisionRoutes = (name: string) => (app: import('express').Express) => {
    app.get('/revisions', (_req, res) => {
      res.json({ data: [], served_by: name });
    });
    app.get('/revisions/slow', () => {
      /* never answers */
    });
    app.get('/revisions/stream', async (_req, res) => {
      res.setHeader('content-type', 'text/plain');
      res.write('first;');
      await sleep(300);
      res.write('second;');
      await sleep(300);
      res.end('third');
    });
    app.post('/revisions/upload', (req, res) => {
      let bytes = 0;
      req.on('data', (c: Buffer) => {
        if (bytes === 0) firstChunkSeen();
        bytes += c.length;
      });
      req.on('end', () => res.status(201).json({ data: { bytes } }));
    });
  };
  revisionsA = await startUpstream('revisions-a', revisionRoutes('a'));
  revisionsB = await startUpstream('revisions-b', revisionRoutes('b'));
  items = await startUpstream('items', (app) => {
    // which connection a request with a body came on (the proxy keeps it for the next one)
    app.search('/items/articles', (req, res) => {
      req.resume();
      req.on('end', () => res.json({ data: { port: req.socket.remotePort } }));
    });
    app.get('/items/articles', (req, res) => {
      res
        .status(203)
        .setHeader('x-custom', 'kept')
        .json({ data: [{ id: 1 }], query: req.query });
    });
  });
  gateway = await listenGateway({
    config: testConfig({
      AUTH_URLS: auth.url,
      REVISIONS_URLS: `${revisionsA.url},${revisionsB.url}`,
      ITEMS_URLS: items.url,
      HEALTH_TOKEN: HEALTH_TOKEN,
    }),
    logger: silentLogger(),
  });
  base = gateway.base;
});

afterAll(async () => {
  await gateway?.close();
  await Promise.all([auth, revisionsA, revisionsB, items].map((u) => u?.close()));
});

describe('routing', () => {
  it('sends each path to its owning service and preserves status, headers and query', async () => {
    const r = await request(base).get('/items/articles?filter[a][_eq]=1&fields[]=id');
    expect(r.status).toBe(203);
    expect(r.headers['x-custom']).toBe('kept');
    expect(r.body.query).toEqual({ filter: { a: { _eq: '1' } }, fields: ['id'] });
    expect(items.seen.at(-1)?.url).toBe('/items/articles?filter[a][_eq]=1&fields[]=id');
    expect((await request(base).get('/whoami').expect(404)).body.errors[0].extensions.code).toBe('ROUTE_NOT_FOUND');
    expect((await request(base).get('/users/whoami')).body).toEqual({ data: 'auth' });
    expect((await request(base).get('/collections/whoami')).body).toEqual({ data: 'items' });
    expect((await request(base).get('/permissions/whoami')).body).toEqual({ data: 'auth' });
    expect((await request(base).get('/activity/whoami')).body.data).toMatch(/^revisions-/);
  });

  it('answers ping and the contract 404 for unknown routes', async () => {
    expect((await request(base).get('/server/ping')).text).toBe('pong');
    const r = await request(base).get('/nope/x');
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ errors: [{ message: "Route /nope/x doesn't exist.", extensions: { code: 'ROUTE_NOT_FOUND' } }] });
    expect((await request(base).get('/usersx')).status).toBe(404);
  });

  it('round-robins over replicas', async () => {
    const served = new Set<string>();
    for (let i = 0; i < 4; i++) served.add((await request(base).get('/revisions')).body.served_by);
    expect([...served].sort()).toEqual(['a', 'b']);
  });
});

describe('headers and cookies', () => {
  it('passes cookies up and every Set-Cookie down', async () => {
    const r = await request(base).post('/auth/login').set('Cookie', 'a=1; b=2').send({ email: 'x@y.z' });
    expect(r.body.data.cookie).toBe('a=1; b=2');
    const setCookie = r.headers['set-cookie'] as unknown as string[];
    expect(setCookie).toHaveLength(2);
    expect(setCookie[0]).toMatch(/^vellum_refresh_token=r1; Path=\/; HttpOnly/);
    expect(setCookie[1]).toMatch(/^vellum_session_token=s1/);
  });

  it('adds X-Request-Id, X-Forwarded-* and traceparent', async () => {
    const trace = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    const r = await request(base).get('/users/me').set('X-Request-Id', 'req-42').set('traceparent', trace).set('Host', 'api.example.com');
    expect(r.headers['x-request-id']).toBe('req-42');
    const h = auth.seen.at(-1)!.headers;
    expect(h['x-request-id']).toBe('req-42');
    expect(h['x-forwarded-for']).toBe('127.0.0.1');
    expect(h['x-forwarded-proto']).toBe('http');
    expect(h['x-forwarded-host']).toBe('api.example.com');
    expect(h.traceparent).toMatch(/^00-4bf92f3577b34da6a3ce929d0e0e4736-[0-9a-f]{16}-01$/);
    expect(h.traceparent).not.toBe(trace);
    const fresh = await request(base).get('/users/me');
    expect(fresh.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(auth.seen.at(-1)!.headers.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
  });
});

describe('streaming', () => {
  it('streams the response: the first chunk arrives before the upstream has finished', async () => {
    const started = Date.now();
    const firstAt = await new Promise<{ first: number; body: string }>((resolve, reject) => {
      http.get(`${base}/revisions/stream`, (res) => {
        let body = '';
        let first = 0;
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          if (!body) first = Date.now() - started;
          body += c;
        });
        res.on('end', () => resolve({ first, body }));
        res.on('error', reject);
      });
    });
    expect(firstAt.body).toBe('first;second;third');
    expect(firstAt.first).toBeLessThan(400);
  });

  it('streams the request body: the upstream sees the first chunk before the client has sent the rest', async () => {
    const seen = new Promise<void>((r) => (firstChunkSeen = r));
    const result = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(`${base}/revisions/upload`, { method: 'POST', headers: { 'content-type': 'application/octet-stream' } }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      });
      req.on('error', reject);
      req.write(Buffer.alloc(64 * 1024, 1));
      // Only continue once the upstream has the first chunk: a buffering proxy would deadlock here.
      void seen.then(() => req.end(Buffer.alloc(64 * 1024, 2)));
    });
    expect(result.status).toBe(201);
    expect(JSON.parse(result.body)).toEqual({ data: { bytes: 128 * 1024 } });
  });

  it('keeps the upstream connection after a request with a body in any method (SEARCH: undici closed it after each)', async () => {
    const ports: number[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await request(base)
        .search('/items/articles')
        .send({ query: { limit: i + 1 } });
      expect(r.status).toBe(200);
      ports.push(r.body.data.port);
    }
    expect(new Set(ports).size).toBe(1);
  });

  it('refuses bodies over 1 MB with 413, declared or streamed', async () => {
    const big = Buffer.alloc(1024 * 1024 + 10, 'a');
    const r = await request(base).post('/revisions/upload').set('content-type', 'application/octet-stream').send(big);
    expect(r.status).toBe(413);
    expect(r.body.errors[0].extensions.code).toBe('CONTENT_TOO_LARGE');
    const chunked = await new Promise<number>((resolve, reject) => {
      const req = http.request(`${base}/revisions/upload`, { method: 'POST', headers: { 'transfer-encoding': 'chunked' } }, (res) => {
        res.resume();
        resolve(res.statusCode!);
      });
      req.on('error', reject);
      req.end(big);
    });
    expect(chunked).toBe(413);
  });
});

describe('failures', () => {
  it('answers 503 within the response timeout when the upstream is silent', async () => {
    await expectUnavailableWithin(base, '/revisions/slow', 'revisions', 2500);
  });

  it('an upstream killed mid-test → 503 within the timeout, then recovery when it is back', async () => {
    expect((await request(base).get('/users/me')).status).toBe(200);
    await auth.kill();
    const started = Date.now();
    const down = await request(base).get('/users/me');
    expect(down.status).toBe(503);
    expect(down.body.errors[0].extensions).toMatchObject({ code: 'SERVICE_UNAVAILABLE', service: 'auth' });
    expect(Date.now() - started).toBeLessThan(1000);
    const health = await detailedHealth(base);
    expect(health.status).toBe(503);
    expect(health.body.checks.auth.status).toBe('error');
    await auth.revive();
    expect((await request(base).get('/users/me')).status).toBe(200);
  });

  it('two replicas, one killed → no failed GET after the first (none at all: connect failures are retried)', async () => {
    await revisionsB.kill();
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 10; i++) statuses.push((await request(base).get('/revisions')).status);
      expect(statuses).toEqual(Array(10).fill(200));
      const r = await request(base).get('/revisions');
      expect(r.body.served_by).toBe('a');
      const health = await detailedHealth(base);
      expect(health.status).toBe(200);
      expect(health.body.status).toBe('warn');
      expect(health.body.checks.revisions.status).toBe('warn');
    } finally {
      await revisionsB.revive();
    }
  });
});

describe('retries keep the request body', () => {
  it('a POST whose first replica refuses the connection goes to the other one with its body intact', async () => {
    await revisionsB.kill();
    const b = gateway.gw.pools.revisions.replicas.find((r) => r.url.origin === revisionsB.url)!;
    b.downUntil = 0; // not skipped by an earlier test's cooldown: the first POST must meet the dead replica
    try {
      for (let i = 0; i < 4; i++) {
        const r = await request(base)
          .post('/revisions/upload')
          .set('content-type', 'application/octet-stream')
          .send(Buffer.alloc(1000 + i, 7));
        expect([r.status, r.body.data.bytes]).toEqual([201, 1000 + i]);
      }
      expect(b.failures).toBeGreaterThanOrEqual(1);
    } finally {
      await revisionsB.revive();
    }
  });
});

describe('health', () => {
  it('aggregates every service', async () => {
    const r = await detailedHealth(base);
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('ok');
    expect(Object.keys(r.body.checks).sort()).toEqual(['auth', 'items', 'revisions']);
    expect(r.body.checks.revisions.replicas).toHaveLength(2);
  });
});
