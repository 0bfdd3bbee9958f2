// POST /graphql/system in the front door (front/graphql-door.ts) against the express stack it re-implements
// (the gateway's express app alone, `gw.app`): the same requests — through the single-fetch path, through Apollo Gateway,
// and refused on the way (body, token, rate limit) — must come back with the same status, headers (but Date and
// the ids), body and metrics; and the express router must not see the ones the door takes.
import http from 'node:http';
import type { Express } from 'express';
import { createTokenVerifier } from '@vellum/tokens';
import { testTokens } from '@vellum/testing';
import { composeSupergraph } from '../src/graphql/compose-supergraph';
import { BODY_LIMIT_BYTES } from '../src/app';
import { listenGateway, pipelineEnv, silentLogger, testConfig, type ListeningGateway, type Upstream } from './helpers';
import { fixtureSdl, startAuthSubgraph, startRevisionsSubgraph } from './subgraph-fixtures';

const kit = testTokens('k-graphql-door');
const ORIGIN = 'https://app.example.com';
const POINTS = 4;
const supergraphSdl = composeSupergraph([
  { name: 'auth', sdl: fixtureSdl('auth') },
  { name: 'revisions', sdl: fixtureSdl('revisions') },
]);

interface Row {
  name: string;
  path?: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  times?: number;
  status: number;
  /** The path the single-fetch counter names (when the operation got that far). */
  took?: 'single_fetch' | 'planned';
  /** How many Set-Cookie headers the answer carries. */
  cookies?: number;
}

const json = { 'Content-Type': 'application/json' };
const bearer = (t: string) => ({ ...json, Authorization: `Bearer ${t}` });
const good = kit.sign({ sid: 'family-ok' });
const revokedToken = kit.sign({ sid: 'family-revoked' });
const list = JSON.stringify({ query: '{ revisions { id collection activity { action } } }' });

const rows: Row[] = [
  { name: 'one subgraph fetch, anonymous', headers: json, body: list, status: 200, took: 'single_fetch' },
  { name: 'one subgraph fetch with a token and a CORS origin', headers: { ...bearer(good), Origin: ORIGIN }, body: list, status: 200, took: 'single_fetch' },
  {
    name: 'a cross-subgraph join (Apollo Gateway)',
    headers: bearer(good),
    body: JSON.stringify({ query: '{ revisions { id activity { user { id email } } } }' }),
    status: 200,
    took: 'planned',
  },
  {
    name: 'a mutation setting cookies (Apollo Gateway)',
    headers: json,
    body: JSON.stringify({ query: `mutation { auth_login(email: "a@b.c", password: "secret", mode: "cookie") { access_token } }` }),
    status: 200,
    took: 'planned',
    cookies: 2,
  },
  { name: 'a validation error (Apollo Gateway)', headers: json, body: JSON.stringify({ query: '{ revisions { nope } }' }), status: 400, took: 'planned' },
  {
    name: 'the session cookie is not pre-checked',
    headers: { ...json, Cookie: 'vellum_session_token=not-a-jwt' },
    body: list,
    status: 200,
    took: 'single_fetch',
  },
  { name: 'a bad token', headers: bearer('not-a-jwt'), body: list, status: 401 },
  { name: 'a revoked session', headers: bearer(revokedToken), body: list, status: 401 },
  { name: 'malformed JSON', headers: json, body: '{"query": ', status: 400 },
  { name: 'JSON that is not an object', headers: json, body: '42', status: 400 },
  {
    name: 'a byte order mark (the parser reads it)',
    headers: { 'Content-Type': 'application/json; charset=utf-8' },
    body: `\uFEFF ${list}`,
    status: 200,
    took: 'single_fetch',
  },
  { name: 'an empty body', headers: json, body: '', status: 400, took: 'planned' },
  { name: 'a chunked body', headers: { ...json, 'Transfer-Encoding': 'chunked' }, body: list, status: 200, took: 'single_fetch' },
  { name: 'an oversized body', headers: json, body: JSON.stringify({ query: `{ revisions { id } } #${'x'.repeat(BODY_LIMIT_BYTES)}` }), status: 413 },
  { name: 'another media type (Apollo Server refuses it)', headers: { 'Content-Type': 'text/plain' }, body: list, status: 400 },
  {
    name: 'the token in the query (the express stack answers both)',
    path: `/graphql/system?access_token=${good}`,
    headers: json,
    body: list,
    status: 200,
    took: 'single_fetch',
  },
  { name: 'over the rate limit', headers: json, body: list, times: POINTS + 1, status: 429 },
];

let auth: Upstream;
let revisions: Upstream;
let gateways: ListeningGateway[] = [];
const revoked = new Set(['family-revoked']);

beforeAll(async () => {
  auth = await startAuthSubgraph();
  revisions = await startRevisionsSubgraph();
  const config = testConfig({ AUTH_URLS: auth.url, REVISIONS_URLS: revisions.url, ...pipelineEnv(ORIGIN, POINTS) });
  const verifier = createTokenVerifier(kit.keySource);
  for (const via of ['listener', 'app'] as const) {
    gateways.push(await listenGateway({ config, logger: silentLogger(), verifier, isSessionRevoked: (s) => revoked.has(s), supergraphSdl }, via));
  }
});

afterAll(async () => {
  for (const g of gateways) await g.close();
  await auth?.close();
  await revisions?.close();
  gateways = [];
});

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: unknown;
}

function send(base: string, row: Row, index: number): Promise<Answer> {
  const headers: Record<string, string> = {
    'X-Request-Id': `gql-row-${index}`,
    // one client address per row (TRUST_PROXY=loopback believes it): rows do not share a rate-limit budget
    'X-Forwarded-For': `198.51.100.${index + 1}`,
    ...(row.headers?.['Transfer-Encoding'] ? {} : { 'Content-Length': String(Buffer.byteLength(row.body ?? '')) }),
    ...row.headers,
  };
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${row.path ?? '/graphql/system'}`, { method: row.method ?? 'POST', headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const body = (res.headers['content-type'] ?? '').includes('json') && text ? (JSON.parse(text) as unknown) : text;
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
      });
    });
    req.on('error', reject);
    req.end(row.body);
  });
}

/** What may differ between two answers: the time (Date, the rate limit's Retry-After and reset). */
function comparable(a: Answer): Answer {
  const { date: _date, 'retry-after': retryAfter, ...headers } = a.headers;
  const text = JSON.stringify(a.body).replace(/"reset":"[^"]*"/, '"reset":"<reset>"');
  return { status: a.status, headers: { ...headers, ...(retryAfter ? { 'retry-after': '<seconds>' } : {}) }, body: JSON.parse(text) };
}

async function operations(g: ListeningGateway): Promise<Record<string, number>> {
  const m = await g.gw.metrics.getSingleMetric('vellum_gateway_graphql_operations_total')!.get();
  return Object.fromEntries(m.values.map((v) => [v.labels.path, v.value]));
}

/** Calls of the express router of a gateway while `fn` runs. */
async function routerCalls(g: ListeningGateway, fn: () => Promise<unknown>): Promise<number> {
  const router = (g.gw.app as Express & { router: { handle: (...a: unknown[]) => unknown } }).router;
  const spy = jest.spyOn(router, 'handle');
  try {
    await fn();
    return spy.mock.calls.length;
  } finally {
    spy.mockRestore();
  }
}

describe('POST /graphql/system: the front door and the express stack answer alike', () => {
  it.each(rows.map((row, i) => [row.name, row, i] as const))('%s', async (_name, row, i) => {
    const answers: Answer[] = [];
    const took: string[][] = [];
    for (const g of gateways) {
      const before = await operations(g);
      let last: Answer | undefined;
      for (let n = 0; n < (row.times ?? 1); n++) last = await send(g.base, row, i);
      answers.push(last!);
      const after = await operations(g);
      took.push(Object.keys(after).filter((k) => after[k] !== (before[k] ?? 0)));
    }
    const [front, express] = answers as [Answer, Answer];
    expect(front.status).toBe(row.status);
    expect(comparable(express)).toEqual(comparable(front));
    expect(took[0]).toEqual(took[1]);
    if (row.took && !row.times) expect(took[0]).toEqual([row.took]);
    if (row.cookies) expect(front.headers['set-cookie']).toHaveLength(row.cookies);
  });

  it('both counted the same requests (method, route, status) in their metrics', async () => {
    const counts = async (g: ListeningGateway) =>
      (await g.gw.metrics.metrics())
        .split('\n')
        .filter((l) => l.startsWith('vellum_http_request_duration_seconds_count'))
        .sort();
    const [front, express] = await Promise.all(gateways.map(counts));
    expect(front!.join('\n')).toContain('route="/graphql/system"');
    expect(express).toEqual(front);
  });

  it('the express router never sees what the door answers; GET and a query string stay with it', async () => {
    const [front, express] = gateways as [ListeningGateway, ListeningGateway];
    const post = (g: ListeningGateway, row: Row) => send(g.base, row, 90);
    const single: Row = { name: 'single', headers: json, body: list, status: 200 };
    const planned: Row = { name: 'planned', headers: json, body: JSON.stringify({ query: '{ revisions { id activity { user { id } } } }' }), status: 200 };
    expect(await routerCalls(front, () => post(front, single))).toBe(0);
    expect(await routerCalls(front, () => post(front, planned))).toBe(0);
    expect(await routerCalls(express, () => post(express, single))).toBe(1);
    const get = {
      name: 'get',
      method: 'GET',
      path: `/graphql/system?query=${encodeURIComponent('{ revisions { id } }')}`,
      headers: { 'apollo-require-preflight': 'true' },
      status: 200,
    };
    expect(await routerCalls(front, () => post(front, get))).toBe(1);
  });
});
