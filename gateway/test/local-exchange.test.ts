import express from 'express';
import request from 'supertest';
import { LocalServices, createServiceApp, finishServiceApp, serviceListener } from '@vellum/http';
import { Registry, httpMetrics } from '@vellum/metrics';
import { composeSupergraph } from '../src/graphql/compose-supergraph';
import { localExchange } from '../src/proxy/local-exchange';
import { listenGateway, silentLogger, testConfig, type ListeningGateway, type Upstream } from './helpers';
import { fixtureSdl, startAuthSubgraph, startRevisionsSubgraph } from './subgraph-fixtures';

// The embedded topology's subgraph fetch without a socket (proxy/local-exchange.ts): node's own request and
// response over an in-memory socket, the service's whole pipeline, the answer read off the response.

describe('localExchange', () => {
  const registry = new Registry();
  const app = createServiceApp({ service: 'svc', logger: silentLogger(), observe: httpMetrics(registry, 'svc').observe });
  app.post('/graphql', express.json(), (req, res) => {
    res.cookie('a', '1');
    res.cookie('b', '2');
    res.json({ body: req.body, ip: req.ip, host: req.headers.host, len: req.headers['content-length'] });
  });
  let parsedBody: unknown;
  app.post('/parsed', express.json(), (req, res) => {
    res.json({ same: req.body === parsedBody, body: req.body });
  });
  app.post('/streamed', (_req, res) => {
    res.write('{"a":');
    setImmediate(() => res.end('1}'));
  });
  app.post('/bytes', (_req, res) => {
    res.setHeader('content-type', 'application/octet-stream');
    res.end(Buffer.from([0xc3, 0xa9, 0xff]));
  });
  app.post('/latin1', (_req, res) => {
    res.setHeader('content-type', 'text/plain; charset=latin1');
    res.write('caf\u00e9', 'latin1');
    res.end();
  });
  app.post('/slow', () => {
    /* never answers */
  });
  finishServiceApp(app, silentLogger());
  const listener = serviceListener(app);
  const body = JSON.stringify({ query: '{ é }' });
  const head = ['Host', '127.0.0.1:1', 'content-type', 'application/json', 'content-length', String(Buffer.byteLength(body))];

  it('runs the service’s pipeline and gives its status, headers (every Set-Cookie) and body', async () => {
    const a = await localExchange(listener, { method: 'POST', url: '/graphql', headers: head, body, timeoutMs: 1000 });
    expect(a.status).toBe(200);
    expect(JSON.parse(a.body.toString())).toMatchObject({
      body: { query: '{ é }' },
      ip: '127.0.0.1',
      host: '127.0.0.1:1',
      len: String(Buffer.byteLength(body)),
    });
    expect(a.headers['set-cookie']).toEqual(['a=1; Path=/', 'b=2; Path=/']);
    expect(a.headers['x-request-id']).toEqual(expect.any(String));
    // the service's metrics saw the request end (node:http's 'close' of the response, a moment after the answer)
    await new Promise((r) => setTimeout(r, 20));
    const seen = await registry.getSingleMetric('vellum_http_request_duration_seconds')!.get();
    expect(seen.values.some((v) => v.labels.route === '/graphql' && String(v.labels.status) === '200')).toBe(true);
  });

  it('hands a body over parsed: the service’s parsers leave it as it is (the same object)', async () => {
    parsedBody = { query: '{ é }' };
    const a = await localExchange(listener, { method: 'POST', url: '/parsed', headers: head, body, parsed: parsedBody as object, timeoutMs: 1000 });
    expect([a.status, JSON.parse(a.body.toString())]).toEqual([200, { same: true, body: { query: '{ é }' } }]);
    const b = await localExchange(listener, { method: 'POST', url: '/parsed', headers: head, body, timeoutMs: 1000 });
    expect(JSON.parse(b.body.toString())).toEqual({ same: false, body: { query: '{ é }' } });
  });

  it('an unknown path gets the service’s 404 envelope; a streamed answer comes whole; no answer in time is a TimeoutError', async () => {
    const missing = await localExchange(listener, { method: 'POST', url: '/nope', headers: head, body, timeoutMs: 1000 });
    expect([missing.status, JSON.parse(missing.body.toString()).errors[0].extensions.code]).toEqual([404, 'ROUTE_NOT_FOUND']);
    const streamed = await localExchange(listener, { method: 'POST', url: '/streamed', headers: head, body, timeoutMs: 1000 });
    expect(streamed.body.toString()).toBe('{"a":1}');
    await expect(localExchange(listener, { method: 'POST', url: '/slow', headers: head, body, timeoutMs: 100 })).rejects.toMatchObject({
      name: 'TimeoutError',
    });
  });

  it('gives a text answer as its text (no bytes made of it here), and what was written as bytes as its bytes', async () => {
    const text = await localExchange(listener, { method: 'POST', url: '/graphql', headers: head, body, timeoutMs: 1000 });
    expect(typeof text.body).toBe('string');
    expect(JSON.parse(text.body as string).body).toEqual({ query: '{ é }' });
    expect(Buffer.byteLength(text.body)).toBe(Number(text.headers['content-length']));
    const streamed = await localExchange(listener, { method: 'POST', url: '/streamed', headers: head, body, timeoutMs: 1000 });
    expect(streamed.body).toBe('{"a":1}');
    const bytes = await localExchange(listener, { method: 'POST', url: '/bytes', headers: head, body, timeoutMs: 1000 });
    expect(bytes.body).toEqual(Buffer.from([0xc3, 0xa9, 0xff]));
    // text written in another encoding: the bytes that encoding makes (é as one byte), as on a socket
    const latin1 = await localExchange(listener, { method: 'POST', url: '/latin1', headers: head, body, timeoutMs: 1000 });
    expect(latin1.body).toEqual(Buffer.from([0x63, 0x61, 0x66, 0xe9]));
  });
});

describe('the federation’s subgraph fetch in the embedded topology', () => {
  let auth: Upstream;
  let revisions: Upstream;
  let gateway: ListeningGateway;
  let overHttp: ListeningGateway;
  let inProcess = 0;
  /** In-process requests that arrived with their body already parsed (the single-fetch path's). */
  let parsed = 0;

  beforeAll(async () => {
    auth = await startAuthSubgraph();
    revisions = await startRevisionsSubgraph();
    const local = new LocalServices();
    const handler = revisions.app as unknown as (req: unknown, res: unknown) => void;
    local.register(revisions.url, (req, res) => {
      inProcess++;
      if ((req as { body?: unknown }).body !== undefined) parsed++;
      handler(req, res);
    });
    const config = testConfig({ AUTH_URLS: auth.url, REVISIONS_URLS: revisions.url });
    const supergraphSdl = composeSupergraph([
      { name: 'auth', sdl: fixtureSdl('auth') },
      { name: 'revisions', sdl: fixtureSdl('revisions') },
    ]);
    gateway = await listenGateway({ config, logger: silentLogger(), supergraphSdl, localServices: local });
    overHttp = await listenGateway({ config, logger: silentLogger(), supergraphSdl });
  });
  afterAll(async () => {
    await gateway?.close();
    await overHttp?.close();
    await auth?.close();
    await revisions?.close();
  });

  it.each([
    ['one subgraph (the single-fetch path, its body handed over parsed)', '{ revisions { id collection activity { action } } }', 1],
    ['a join (Apollo Gateway’s plan)', '{ revisions { id activity { user { email } } } }', 0],
  ])('asks a subgraph of this process without a socket, with the answers of the HTTP path: %s', async (_name, query, parsedCount) => {
    const before = inProcess;
    const parsedBefore = parsed;
    const seen = revisions.seen.length;
    const a = await request(gateway.base).post('/graphql/system').set('x-request-id', 'le-1').send({ query });
    expect(inProcess).toBe(before + 1);
    expect(parsed - parsedBefore).toBe(parsedCount);
    const b = await request(overHttp.base).post('/graphql/system').set('x-request-id', 'le-1').send({ query });
    expect(inProcess).toBe(before + 1);
    expect([a.status, a.body]).toEqual([b.status, b.body]);
    expect(a.body.errors).toBeUndefined();
    // the subgraph saw the same request head either way (the recorder is the upstream's first middleware)
    const [local, http] = revisions.seen.slice(seen);
    // not the connection's, the span's, the gateway's own address, nor accept-encoding (federation.ts FETCH_DEFAULTS)
    const strip = (h: Record<string, unknown>) => ({
      ...h,
      connection: undefined,
      traceparent: undefined,
      'x-forwarded-host': undefined,
      'accept-encoding': undefined,
    });
    expect(strip(local!.headers)).toEqual(strip(http!.headers));
  });
});
