// A service as it listens (`listen`): a request line or headers too large for node's parser answer 414/431 in the
// error envelope, on a fresh connection and on a reused keep-alive one alike (answer, then close).
import { createServiceApp, finishServiceApp, listen, type Listening } from '@vellum/http';
import { hugeFilterRequest, hugeHeadersRequest, parseRawResponse, rawKeepAliveExchange, silentLogger } from '@vellum/testing';

let service: Listening;
beforeAll(async () => {
  const app = createServiceApp({ service: 'test' });
  app.get('/revisions', (_req, res) => {
    res.json({ data: [] });
  });
  finishServiceApp(app, silentLogger());
  service = await listen(app);
});
afterAll(() => service.close(100));

const ordinary = 'GET /revisions?limit=-5 HTTP/1.1\r\nHost: x\r\n\r\n';
const code = (raw: string) => (parseRawResponse(raw).body as { errors: { extensions: { code: string } }[] }).errors[0].extensions.code;

it('a too-long URL after a complete answer on the same connection → 414 in the envelope, then close', async () => {
  const r = await rawKeepAliveExchange(service.url, ordinary, hugeFilterRequest('/revisions'));
  expect(parseRawResponse(r.first).status).toBe(200);
  expect(r.error).toBeUndefined();
  expect(parseRawResponse(r.second).status).toBe(414);
  expect(r.second).toMatch(/\r\nconnection: close/i);
  expect(code(r.second)).toBe('URI_TOO_LONG');
});

it('headers too large on a reused connection → 431 in the envelope', async () => {
  const r = await rawKeepAliveExchange(service.url, ordinary, hugeHeadersRequest('/revisions'));
  expect(parseRawResponse(r.second).status).toBe(431);
  expect(code(r.second)).toBe('HEADERS_TOO_LARGE');
});

it('the answer is not lost to a reset while the client is still sending its long request line', async () => {
  const rest = Array.from({ length: 16 }, () => 'a'.repeat(16 * 1024));
  const r = await rawKeepAliveExchange(service.url, ordinary, 'GET /revisions?filter=' + 'a'.repeat(20 * 1024), rest);
  expect(parseRawResponse(r.second).status).toBe(414);
  expect(code(r.second)).toBe('URI_TOO_LONG');
});
