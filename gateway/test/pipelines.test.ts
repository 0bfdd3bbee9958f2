// The proxied REST paths through the gateway's one way in (`gw.listener`, as it listens in production): each row —
// reads, bodies, token checks, CORS, the rate limit, body limits, unknown paths — answers its status and error code;
// the service's own headers merge with the gateway's; every request is counted by route in the metrics.
import http from 'node:http';
import { listenOn, type Listening } from '@vellum/http';
import { createTokenVerifier } from '@vellum/tokens';
import { testTokens } from '@vellum/testing';
import { BODY_LIMIT_BYTES, createGateway, type Gateway } from '../src/app';
import { pipelineEnv, silentLogger, startUpstream, testConfig, type Upstream } from './helpers';

const kit = testTokens('k-pipelines');
const ORIGIN = 'https://app.example.com';
const TRACE = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
const POINTS = 5;

interface Row {
  name: string;
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Stream the body without Content-Length. */
  chunked?: boolean;
  /** Send the request this many times (the rate limit); the last answer is compared. */
  times?: number;
  /** The status both paths must answer (two equally broken paths are not the same behaviour). */
  status: number;
  code?: string;
}

const bearer = (t: string) => ({ Authorization: `Bearer ${t}` });
const good = kit.sign({ sid: 'family-ok' });
const revokedToken = kit.sign({ sid: 'family-revoked' });
const expired = kit.sign({}, { expiresIn: -10 });
const forged = `${good.slice(0, -4)}AAAA`;
const big = 'x'.repeat(BODY_LIMIT_BYTES + 1);

const rows: Row[] = [
  { name: 'REST read with a good token', method: 'GET', path: '/revisions?limit=1&sort=-id', headers: bearer(good), status: 200 },
  { name: 'REST read, anonymous, CORS origin', method: 'GET', path: '/revisions', headers: { Origin: ORIGIN }, status: 200 },
  { name: 'REST read, token in the query', method: 'GET', path: `/activity?access_token=${good}`, status: 200 },
  {
    name: 'SEARCH with a JSON body',
    method: 'SEARCH',
    path: '/items/articles',
    headers: { ...bearer(good), 'Content-Type': 'application/json' },
    body: '{"query":{"limit":2}}',
    status: 200,
  },
  {
    name: 'POST with a body, service headers merged',
    method: 'POST',
    path: '/items/articles/headers',
    headers: { ...bearer(good), 'Content-Type': 'application/json', Origin: ORIGIN },
    body: '{"title":"t"}',
    status: 201,
  },
  { name: 'HEAD', method: 'HEAD', path: '/revisions', headers: bearer(good), status: 200 },
  { name: 'an error of the service passes through', method: 'GET', path: '/users/forbidden', headers: bearer(good), status: 403, code: 'FORBIDDEN' },
  {
    name: 'bad token (not a JWT)',
    method: 'GET',
    path: '/revisions',
    headers: { ...bearer('not-a-jwt'), Origin: ORIGIN },
    status: 401,
    code: 'INVALID_CREDENTIALS',
  },
  { name: 'bad token (forged signature)', method: 'GET', path: '/items/articles', headers: bearer(forged), status: 403, code: 'INVALID_TOKEN' },
  { name: 'expired token', method: 'GET', path: '/revisions', headers: bearer(expired), status: 401, code: 'TOKEN_EXPIRED' },
  { name: 'revoked session', method: 'GET', path: '/revisions', headers: bearer(revokedToken), status: 401, code: 'TOKEN_EXPIRED' },
  {
    name: 'revoked session in the session cookie',
    method: 'GET',
    path: '/users/me',
    headers: { Cookie: `vellum_session_token=${revokedToken}` },
    status: 401,
    code: 'TOKEN_EXPIRED',
  },
  { name: 'token in query and header', method: 'GET', path: `/revisions?access_token=${good}`, headers: bearer(good), status: 400, code: 'INVALID_PAYLOAD' },
  {
    name: '/auth/* is not pre-checked',
    method: 'POST',
    path: '/auth/login',
    headers: { ...bearer('not-a-jwt'), 'Content-Type': 'application/json' },
    body: '{"email":"a@b.co","password":"p"}',
    status: 200,
  },
  {
    name: 'CORS preflight',
    method: 'OPTIONS',
    path: '/items/articles',
    headers: { Origin: ORIGIN, 'Access-Control-Request-Method': 'PATCH', 'Access-Control-Request-Headers': 'authorization' },
    status: 204,
  },
  {
    name: 'CORS preflight, other origin',
    method: 'OPTIONS',
    path: '/revisions',
    headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'GET' },
    status: 204,
  },
  { name: 'over the rate limit', method: 'GET', path: '/revisions', headers: bearer(good), times: POINTS + 1, status: 429, code: 'REQUESTS_EXCEEDED' },
  {
    name: 'oversized body (declared)',
    method: 'POST',
    path: '/items/articles',
    headers: { 'Content-Type': 'application/json' },
    body: big,
    status: 413,
    code: 'CONTENT_TOO_LARGE',
  },
  {
    name: 'oversized body (streamed)',
    method: 'POST',
    path: '/items/articles',
    headers: { 'Content-Type': 'application/json' },
    body: big,
    chunked: true,
    status: 413,
    code: 'CONTENT_TOO_LARGE',
  },
  { name: 'unknown path', method: 'GET', path: '/nowhere', headers: bearer(good), status: 404, code: 'ROUTE_NOT_FOUND' },
];

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: unknown;
}

let upstreams: Upstream[] = [];
let gateways: Gateway[] = [];
let servers: Listening[] = [];
const revoked = new Set(['family-revoked']);

/** The upstream's view of a request: what it got (traceparent: the caller's trace id and flags, its span is new). */
function echo(req: { method: string; originalUrl: string; headers: http.IncomingHttpHeaders; body?: unknown }) {
  const { traceparent, ...headers } = req.headers;
  const trace = String(traceparent ?? '').split('-');
  return { method: req.method, url: req.originalUrl, headers, trace: [trace[0], trace[1], trace[3]] };
}

beforeAll(async () => {
  const configure = (name: string) => (app: import('express').Express) => {
    app.use((req, res, next) => {
      // read what came, so a streamed body is consumed (the gateway cuts it past the limit)
      let n = 0;
      req.on('data', (c: Buffer) => (n += c.length));
      req.on('end', () => {
        res.locals.bytes = n;
        next();
      });
    });
    app.post('/items/articles/headers', (req, res) => {
      res.setHeader('Vary', 'Accept-Encoding');
      res.setHeader('X-Frame-Options', 'SAMEORIGIN');
      res.setHeader('X-Request-Id', 'set-by-the-service');
      res.setHeader('Set-Cookie', ['a=1; Path=/', 'b=2; Path=/']);
      res.status(201).json({ data: echo(req) });
    });
    app.get('/users/forbidden', (_req, res) => {
      res.status(403).json({ errors: [{ message: "You don't have permission to access this.", extensions: { code: 'FORBIDDEN' } }] });
    });
    app.use((req, res) => {
      res.json({ service: name, data: echo(req), bytes: res.locals.bytes });
    });
  };
  upstreams = [
    await startUpstream('auth', configure('auth')),
    await startUpstream('revisions', configure('revisions')),
    await startUpstream('items', configure('items')),
  ];
  const config = testConfig({
    AUTH_URLS: upstreams[0]!.url,
    REVISIONS_URLS: upstreams[1]!.url,
    ITEMS_URLS: upstreams[2]!.url,
    ...pipelineEnv(ORIGIN, POINTS),
    PUBLIC_URL: 'https://vellum.example',
  });
  const verifier = createTokenVerifier(kit.keySource);
  const gw = await createGateway({ config, logger: silentLogger(), verifier, isSessionRevoked: (s) => revoked.has(s) });
  gateways.push(gw);
  servers.push(await listenOn(gw.listener, 0));
});

afterAll(async () => {
  for (const s of servers) await s.close(100);
  for (const g of gateways) await g.close();
  for (const u of upstreams) await u.close();
  servers = [];
  gateways = [];
  upstreams = [];
});

function send(base: string, row: Row, index: number): Promise<Answer> {
  const headers: Record<string, string> = {
    Host: 'vellum.example',
    'X-Request-Id': `row-${index}`,
    // one client address per row (TRUST_PROXY=loopback believes it): rows do not share a rate-limit budget
    'X-Forwarded-For': `203.0.113.${index + 1}`,
    traceparent: TRACE,
    ...row.headers,
  };
  if (row.body !== undefined && !row.chunked) headers['Content-Length'] = String(Buffer.byteLength(row.body));
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${row.path}`, { method: row.method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const json = (res.headers['content-type'] ?? '').includes('json') && text ? (JSON.parse(text) as unknown) : text;
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: json });
      });
    });
    req.on('error', reject);
    if (row.chunked && row.body) {
      // in pieces, so the limit is met while streaming
      for (let i = 0; i < row.body.length; i += 64 * 1024) req.write(row.body.slice(i, i + 64 * 1024));
    } else if (row.body !== undefined) {
      req.write(row.body);
    }
    req.end();
  });
}

describe("the gateway's REST paths", () => {
  it.each(rows.map((row, i) => [row.name, row, i] as const))('%s', async (_name, row, i) => {
    let last: Answer | undefined;
    for (let n = 0; n < (row.times ?? 1); n++) last = await send(servers[0]!.url, row, i);
    expect(last!.status).toBe(row.status);
    if (row.code) expect((last!.body as { errors: { extensions: { code: string } }[] }).errors[0]!.extensions.code).toBe(row.code);
  });

  it("a service's own headers replace the gateway's (not the request id), Vary is added to, every Set-Cookie passes; the upstream sees the caller's trace", async () => {
    const row = rows.find((r) => r.name.startsWith('POST with a body'))!;
    const a = await send(servers[0]!.url, row, 200);
    expect(a.status).toBe(201);
    expect(a.headers['x-request-id']).toBe('row-200'); // the request's id is the gateway's to give
    expect(a.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(a.headers['set-cookie']).toEqual(['a=1; Path=/', 'b=2; Path=/']);
    expect(String(a.headers.vary).split(/,\s*/)).toEqual(expect.arrayContaining(['Origin', 'Accept-Encoding']));
    expect(a.headers['access-control-allow-origin']).toBe(ORIGIN);
    const seen = (a.body as { data: { method: string; url: string; trace: string[] } }).data;
    expect(seen).toMatchObject({ method: 'POST', url: '/items/articles/headers', trace: ['00', '4bf92f3577b34da6a3ce929d0e0e4736', '01'] });
  });

  it('counted the requests (method, route, status) in its metrics', async () => {
    const lines = (await gateways[0]!.metrics.metrics()).split('\n').filter((l) => l.startsWith('vellum_http_request_duration_seconds_count'));
    expect(lines.length).toBeGreaterThan(5);
    expect(lines.join('\n')).toContain('method="GET",route="/revisions",status="429"');
    expect(lines.join('\n')).toContain('method="POST",route="/items",status="413"');
  });
});
