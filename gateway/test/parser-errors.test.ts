// A request line or headers too large for node's HTTP parser (414/431) are answered in the error
// envelope with a message pointing at SEARCH, by the gateway as it listens in production (startGateway).
import type { RunningService } from '@vellum/http';
import { hugeFilterRequest, hugeHeadersRequest, parseRawResponse, rawHttpExchange, rawKeepAliveExchange } from '@vellum/testing';
import { startGateway } from '../src/start';
import { silentLogger, startUpstream, testConfig, type Upstream } from './helpers';

let upstream: Upstream;
let gateway: RunningService;
beforeAll(async () => {
  upstream = await startUpstream('revisions', (app) => {
    app.get('/revisions', (_req, res) => res.json({ data: [] }));
  });
  gateway = await startGateway(testConfig({ REVISIONS_URLS: upstream.url }), { logger: silentLogger() });
});
afterAll(async () => {
  await gateway.stop();
  await upstream.close();
});

type Envelope = { errors: { message: string; extensions: { code: string } }[] };

it('a request line too long (a huge filter in the URL) → 414 URI_TOO_LONG in the envelope, pointing at SEARCH', async () => {
  const r = parseRawResponse(await rawHttpExchange(gateway.url, hugeFilterRequest('/revisions')));
  expect(r.status).toBe(414);
  expect(r.head).toMatch(/\r\ncontent-type: application\/json; charset=utf-8\r\n/i);
  expect(r.head).toMatch(/\r\nconnection: close/i);
  const body = r.body as Envelope;
  expect(body.errors[0].extensions).toEqual({ code: 'URI_TOO_LONG' });
  expect(body.errors[0].message).toMatch(/^URI too long\. .*SEARCH/);
});

it('headers too large → 431 HEADERS_TOO_LARGE in the envelope, pointing at SEARCH', async () => {
  const r = parseRawResponse(await rawHttpExchange(gateway.url, hugeHeadersRequest('/revisions')));
  expect(r.status).toBe(431);
  const body = r.body as Envelope;
  expect(body.errors[0].extensions).toEqual({ code: 'HEADERS_TOO_LARGE' });
  expect(body.errors[0].message).toMatch(/SEARCH/);
});

it('other parser errors answer as node does; ordinary requests are untouched', async () => {
  expect(await rawHttpExchange(gateway.url, 'NOT HTTP AT ALL\r\n\r\n')).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
  const ok = parseRawResponse(await rawHttpExchange(gateway.url, 'GET /revisions HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'));
  expect(ok.status).toBe(200);
});

it('on a reused keep-alive connection too: 414 and 431 in the envelope after an earlier complete answer', async () => {
  const ordinary = 'GET /revisions HTTP/1.1\r\nHost: x\r\n\r\n';
  const long = await rawKeepAliveExchange(gateway.url, ordinary, hugeFilterRequest('/revisions'));
  expect(parseRawResponse(long.first).status).toBe(200);
  expect(long.error).toBeUndefined();
  expect(parseRawResponse(long.second).status).toBe(414);
  expect((parseRawResponse(long.second).body as Envelope).errors[0].extensions).toEqual({ code: 'URI_TOO_LONG' });
  const headers = await rawKeepAliveExchange(gateway.url, ordinary, hugeHeadersRequest('/revisions'));
  expect(parseRawResponse(headers.second).status).toBe(431);
});
