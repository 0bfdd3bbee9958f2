import express from 'express';
import request from 'supertest';
import { listenOn, LocalServices, type Listening } from '@vellum/http';
import { createGateway, type Gateway } from '../src/app';
import { expectUnavailableWithin, silentLogger, startUpstream, testConfig, type Upstream } from './helpers';

// The embedded topology: a service of the same process gets the request handed to its handler (no socket).
// What the caller sees and what the service sees must be what the HTTP path gives (distributed topology).
let upstream: Upstream;
let handed = 0;
let unregister: () => void;
const gateways: Gateway[] = [];
const servers: Listening[] = [];
let viaHttp: string;
let viaHandoff: string;

beforeAll(async () => {
  upstream = await startUpstream('revisions', (app) => {
    app.disable('etag');
    app.use(express.json());
    const seen = (req: express.Request) => ({
      headers: { ...req.headers, traceparent: String(req.headers.traceparent).replace(/-[0-9a-f]{16}-/, '-span-') },
      ip: req.ip,
      protocol: req.protocol,
      url: req.originalUrl,
      body: req.body ?? null,
    });
    app.get('/revisions/echo', (req, res) => res.json(seen(req)));
    app.post('/revisions/echo', (req, res) => res.status(201).json(seen(req)));
    app.get('/revisions/headers', (_req, res) => {
      res.vary('Accept-Encoding'); // a service adds to Vary (the gateway's Origin stays)
      res.setHeader('X-Frame-Options', 'SAMEORIGIN'); // the service's own value wins over the gateway's
      res.setHeader('X-Custom', 'kept');
      res.status(203).send('plain');
    });
    // the methods of the response node's internals call, as the service's own (not the request's functions)
    app.get('/revisions/own', (_req, res) => res.json(['writeHead', 'setHeader', 'appendHeader', 'write', 'end'].filter((k) => Object.hasOwn(res, k))));
    app.get('/revisions/forbidden', (_req, res) => res.status(403).json({ errors: [{ message: 'no', extensions: { code: 'FORBIDDEN' } }] }));
    app.get('/revisions/slow', () => {
      /* never answers */
    });
    // answers after the gateway gave up (timeout 800 ms): the late headers, writes and end go nowhere
    app.get('/revisions/late', async (_req, res) => {
      await new Promise((r) => setTimeout(r, 1000));
      res.setHeader('X-Late', '1');
      res.write('late');
      res.end();
    });
    app.get('/revisions/late-json', async (_req, res) => {
      await new Promise((r) => setTimeout(r, 1000));
      res.status(200).json({ late: true });
    });
  });
  const local = new LocalServices();
  unregister = local.register(upstream.url, (req, res) => {
    handed++;
    upstream.app(req, res);
  });
  const config = testConfig({ REVISIONS_URLS: upstream.url, CORS_ENABLED: 'true', CORS_ORIGIN: 'true', UPSTREAM_RESPONSE_TIMEOUT: '800' });
  for (const localServices of [undefined, local]) {
    const gw = await createGateway({ config, logger: silentLogger(), localServices, supergraphSdl: '' });
    gateways.push(gw);
    servers.push(await listenOn(gw.listener));
  }
  [viaHttp, viaHandoff] = servers.map((s) => s.url);
});
afterAll(async () => {
  for (const s of servers) await s.close(100);
  for (const g of gateways) await g.close();
  await upstream.close();
});

/** Headers that describe the connection or the moment, not the answer. */
const comparable = (h: Record<string, unknown>) => {
  const { date: _d, connection: _c, 'keep-alive': _k, ...rest } = h;
  return rest;
};

describe('gateway → in-process service handoff', () => {
  const cases: { method: string; path: string; body?: object }[] = [
    { method: 'GET', path: '/revisions/echo?a[b]=1&x=%C3%A9' },
    { method: 'POST', path: '/revisions/echo', body: { data: { n: 1 } } },
    { method: 'GET', path: '/revisions/headers' },
    { method: 'GET', path: '/revisions/forbidden' },
    { method: 'GET', path: '/revisions/nope' },
  ];
  it.each(cases)('$method $path: the same status, headers and body as over HTTP, with no socket', async ({ method, path, body }) => {
    const call = (base: string) => {
      const agent = request(base);
      const r = (method === 'GET' ? agent.get(path) : agent.post(path))
        .set('X-Request-Id', 'req-1')
        .set('Origin', 'http://app.example')
        .set('Cookie', 'a=1')
        .set('traceparent', '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01');
      return body ? r.send(body) : r;
    };
    const before = handed;
    const http = await call(viaHttp);
    expect(handed).toBe(before);
    const local = await call(viaHandoff);
    expect(handed).toBe(before + 1);
    expect(local.status).toBe(http.status);
    // what the service saw: the same, apart from the HTTP hop's own `connection` and each gateway's own host
    const seenBy = (r: request.Response, base: string) => {
      if (!r.type.includes('json') || !r.body.headers) return r.text;
      const { connection: _c, ...headers } = r.body.headers;
      expect(headers['x-forwarded-host']).toBe(new URL(base).host);
      return { ...r.body, headers: { ...headers, 'x-forwarded-host': 'the gateway' } };
    };
    expect(seenBy(local, viaHandoff)).toEqual(seenBy(http, viaHttp));
    // (an echo's length differs with what it echoes)
    const headers = (r: request.Response) => comparable({ ...r.headers, ...(path.includes('echo') ? { 'content-length': 'n' } : {}) });
    expect(headers(local)).toEqual(headers(http));
  });

  it('merges the headers as the HTTP path does: the service wins, Vary is added to', async () => {
    const r = await request(viaHandoff).get('/revisions/headers').set('Origin', 'http://app.example');
    expect(r.status).toBe(203);
    expect(r.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(r.headers.vary).toBe('Origin, Accept-Encoding');
    expect(r.headers['x-custom']).toBe('kept');
    expect(r.headers['x-request-id']).toEqual(expect.any(String));
  });

  it('replaces no method of the response (a replaced writeHead made every response of the path survive into the old generation)', async () => {
    const r = await request(viaHandoff).get('/revisions/own');
    expect([r.status, r.body]).toEqual([200, []]);
  });

  it('a service that does not answer gets 503 within the response timeout, as over HTTP', async () => {
    await expectUnavailableWithin(viaHandoff, '/revisions/slow', 'revisions', 3000);
  });

  it('a late answer after the timeout reaches nobody and breaks nothing: the caller has its 503, the next request its answer', async () => {
    for (const path of ['/revisions/late', '/revisions/late-json']) {
      const agent = request.agent(viaHandoff);
      const r = await agent.get(path);
      expect([r.status, r.headers['x-late'], r.body.errors?.[0]?.extensions?.code]).toEqual([503, undefined, 'SERVICE_UNAVAILABLE']);
      await new Promise((done) => setTimeout(done, 400)); // the late answer has run by now
      const next = await agent.get('/revisions/echo');
      expect(next.status).toBe(200);
    }
  });

  it('a service that stopped (unregistered) is reached over HTTP again', async () => {
    unregister();
    const before = handed;
    const r = await request(viaHandoff).get('/revisions/echo');
    expect(r.status).toBe(200);
    expect(handed).toBe(before);
    await upstream.kill();
    expect((await request(viaHandoff).get('/revisions/echo')).status).toBe(503);
  });
});
