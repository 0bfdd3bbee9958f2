import { readFileSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { gatewaysOverRevisions } from './helpers';

const make = gatewaysOverRevisions();

/** Routes the API reference names in prose ("/roles and /permissions CRUD", "POST or GET /graphql/system"). */
const PROSE_ROUTES = [
  'GET /users',
  'POST /users',
  'PATCH /users/{id}',
  'DELETE /users/{id}',
  'GET /users/{id}',
  'PATCH /users/me',
  'GET /roles',
  'POST /roles',
  'GET /roles/{id}',
  'PATCH /roles/{id}',
  'DELETE /roles/{id}',
  'GET /permissions',
  'POST /permissions',
  'GET /permissions/{id}',
  'PATCH /permissions/{id}',
  'DELETE /permissions/{id}',
  'POST /graphql/system',
  'GET /graphql/system',
];
/** The repository's own API reference: every route written there must be in the OpenAPI document. */
const API_REFERENCE = path.resolve(__dirname, '../../docs/api.md');

/** Every "METHOD /path" written in the API reference, normalised to OpenAPI templates (:id, <provider> → {id}, {provider}). */
function documentedRoutes(): string[] {
  const text = readFileSync(API_REFERENCE, 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(/\b((?:GET|POST|PATCH|DELETE|SEARCH|PUT)(?:\/(?:GET|POST|PATCH|DELETE|SEARCH|PUT))*) (\/[a-z/<>:._-]+)/g)) {
    const p = m[2]
      .replace(/:(\w+)/g, '{$1}')
      .replace(/<(\w+)>/g, '{$1}')
      .replace(/[.]$/, '');
    for (const method of m[1].split('/')) out.push(`${method} ${p}`);
  }
  return out;
}

describe('GET /server/specs/oas', () => {
  it('is an OpenAPI 3.1 document with every route of the API reference (docs/api.md)', async () => {
    const r = await request((await make()).listener).get('/server/specs/oas');
    expect(r.status).toBe(200);
    const doc = r.body;
    // no conditional requests (docs/api.md §1): no validator, and `If-None-Match: *` gets the full answer
    expect(r.headers.etag).toBeUndefined();
    const again = await request((await make()).listener)
      .get('/server/specs/oas')
      .set('If-None-Match', '*');
    expect([again.status, again.body.openapi]).toEqual([200, '3.1.0']);
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info).toMatchObject({ title: 'Vellum', version: expect.any(String) });
    const expected = [...new Set([...documentedRoutes(), ...PROSE_ROUTES])];
    expect(expected.length).toBeGreaterThan(40);
    const missing = expected.filter((route) => {
      const [method, p] = route.split(' ');
      const item = doc.paths[p];
      return !item?.[method === 'SEARCH' ? 'x-search' : method.toLowerCase()];
    });
    expect(missing).toEqual([]);
  });

  it('has no operation the API reference (docs/api.md) leaves out', async () => {
    const doc = (await request((await make()).listener).get('/server/specs/oas')).body as { paths: Record<string, Record<string, unknown>> };
    const documented = new Set([...documentedRoutes(), ...PROSE_ROUTES]);
    const undocumented: string[] = [];
    for (const [p, item] of Object.entries(doc.paths)) {
      for (const key of Object.keys(item)) {
        const method = key === 'x-search' ? 'SEARCH' : key.toUpperCase();
        if (!['GET', 'POST', 'PATCH', 'DELETE', 'PUT', 'SEARCH'].includes(method)) continue;
        if (!documented.has(`${method} ${p}`)) undocumented.push(`${method} ${p}`);
      }
    }
    expect(undocumented).toEqual([]);
  });

  it('documents the query language on the auth lists (GET with the parameters, SEARCH with a body) and fields on one', async () => {
    const doc = (await request((await make()).listener).get('/server/specs/oas')).body;
    const names = (op: { parameters: { name: string }[] }) => op.parameters.map((x) => x.name);
    for (const p of ['/users', '/roles', '/permissions']) {
      expect([p, names(doc.paths[p].get)]).toEqual([
        p,
        expect.arrayContaining(['fields', 'filter', 'search', 'sort', 'limit', 'offset', 'page', 'meta', 'aggregate', 'groupBy']),
      ]);
      expect([p, doc.paths[p]['x-search'].requestBody.content['application/json'].schema]).toEqual([p, { $ref: '#/components/schemas/SearchRequest' }]);
      expect(names(doc.paths[`${p}/{id}`].get)).toEqual(['id', 'fields', 'access_token']);
    }
    expect(names(doc.paths['/users/me'].get)).toEqual(['fields', 'access_token']);
  });

  it('is valid-shaped: unique operation ids, resolvable $refs, path params declared, error responses', async () => {
    const doc = (await request((await make()).listener).get('/server/specs/oas')).body;
    const ids = new Set<string>();
    const refs: string[] = [];
    const walk = (v: unknown) => {
      if (Array.isArray(v)) v.forEach(walk);
      else if (v && typeof v === 'object') {
        for (const [k, x] of Object.entries(v)) {
          if (k === '$ref') refs.push(x as string);
          else walk(x);
        }
      }
    };
    walk(doc);
    for (const ref of refs) {
      expect(ref).toMatch(/^#\/components\/schemas\//);
      expect(doc.components.schemas[ref.split('/').pop()!]).toBeDefined();
    }
    for (const [p, item] of Object.entries<Record<string, Record<string, unknown>>>(doc.paths)) {
      expect(p.startsWith('/')).toBe(true);
      const params = [...p.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      for (const op of Object.values(item)) {
        expect(ids.has(op.operationId as string)).toBe(false);
        ids.add(op.operationId as string);
        const declared = (op.parameters as { name: string; in: string }[]).filter((x) => x.in === 'path').map((x) => x.name);
        expect(declared.sort()).toEqual([...params].sort());
        expect(Object.keys(op.responses as object)).toEqual(expect.arrayContaining(['4XX', '5XX']));
      }
    }
  });
});

describe('metrics', () => {
  it('are not on the public port', async () => {
    expect((await request((await make()).listener).get('/metrics')).status).toBe(404);
  });

  it('count and time requests by route label and status, and upstream errors, in the process registry', async () => {
    const gw = await make({ ITEMS_URLS: 'http://127.0.0.1:1' });
    await request(gw.listener).get('/revisions?x=1').expect(200);
    await request(gw.listener).get('/revisions/42');
    await request(gw.listener).get('/items/articles').expect(503);
    await request(gw.listener).get('/nope').expect(404);
    const text = await gw.metrics.metrics();
    expect(text).toMatch(/vellum_http_request_duration_seconds_count\{service="gateway",method="GET",route="\/revisions",status="200"\} 1/);
    expect(text).toMatch(/vellum_http_request_duration_seconds_count\{service="gateway",method="GET",route="\/revisions",status="404"\} 1/);
    expect(text).toMatch(/vellum_http_request_duration_seconds_count\{service="gateway",method="GET",route="unmatched",status="404"\} 1/);
    expect(text).toMatch(/vellum_http_request_duration_seconds_bucket\{le="\+Inf",service="gateway",method="GET",route="\/revisions",status="200"\} 1/);
    expect(text).toMatch(/vellum_gateway_upstream_errors_total\{service="items",reason="ECONNREFUSED"\} 1/);
    expect(text).not.toMatch(/route="\/revisions\/42"/);
  });
});
