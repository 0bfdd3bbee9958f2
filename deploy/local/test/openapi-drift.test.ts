// Issue 5: the OpenAPI document served by the gateway is generated from the same zod schemas the services validate
// request bodies with. The services' apps are built as in their tests (createApp) but without a database: a body
// is validated before any handler runs, so every 400 below comes from the route's schema — a route that did not
// validate would reach its handler and fail on the missing database (500), failing the test.
import type { Express } from 'express';
import request from 'supertest';
import { createApp as createAuthApp, loadAuthConfig } from '@vellum/auth';
import { requestBodyJsonSchema } from '@vellum/contracts';
import { createGateway, loadGatewayConfig, type Gateway } from '@vellum/gateway';
import type { RouteEntry } from '@vellum/http';
import { AccessRules, createApp as createItemsApp } from '@vellum/items';
import { createApp as createRevisionsApp } from '@vellum/revisions';
import { AccessRuleMap, type AccessTokenClaims, type TokenVerifier } from '@vellum/tokens';
import { silentLogger } from '@vellum/testing';

type Json = Record<string, unknown>;
interface Service {
  name: string;
  app: Express;
  routes: RouteEntry[];
  token: string;
}

/** The gateway's own request body (Apollo validates GraphQL requests): no service route behind it. */
const GATEWAY_OWN = new Set(['post /graphql/system']);
const ADMIN_ID = '00000000-0000-4000-8000-000000000001';

const logger = silentLogger('openapi-drift-test');
const adminVerifier: TokenVerifier = {
  verify: async () =>
    ({
      id: ADMIN_ID,
      role: null,
      app_access: true,
      admin_access: true,
      iss: 'vellum',
      iat: 0,
      exp: 4102444800,
    }) as AccessTokenClaims,
};
const noDatabase = new Proxy(
  {},
  {
    get: () => {
      throw new Error('no database in this test');
    },
  },
) as never;

let services: Service[];
let gateway: Gateway;
let doc: { paths: Record<string, Record<string, Json>>; components: { schemas: Record<string, Json> } };
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  const authConfig = loadAuthConfig({
    DATABASE_URL: 'postgres://unused',
    RATE_LIMITER_ENABLED: 'false',
    PUBLIC_URL: 'http://vellum.test',
  });
  const auth = createAuthApp({ db: noDatabase, pg: noDatabase, config: authConfig, logger });
  closers.push(() => auth.close());
  const adminToken = auth.ctx.tokens.signAccess({ id: ADMIN_ID, role: null, app_access: true, admin_access: true }, 3_600_000, new Date());
  const items = createItemsApp({
    pool: noDatabase,
    prisma: noDatabase,
    rules: new AccessRules(),
    verifier: adminVerifier,
    logger,
  });
  const revisions = createRevisionsApp({
    pool: noDatabase,
    rules: AccessRuleMap.of({}),
    verifier: adminVerifier,
    logger,
    config: { QUERY_LIMIT_DEFAULT: 100, QUERY_LIMIT_MAX: -1, QUERY_DEFERRED_JOIN_OFFSET: 1000 },
  });
  closers.push(() => revisions.close());
  services = [
    { name: 'auth', app: auth.app, routes: auth.routes, token: adminToken },
    { name: 'items', app: items.app, routes: items.routes, token: 'admin' },
    { name: 'revisions', app: revisions.app, routes: revisions.routes, token: 'admin' },
  ];
  gateway = await createGateway({ config: loadGatewayConfig({ PORT: '0' }), logger });
  closers.push(() => gateway.close());
  doc = (await request(gateway.listener).get('/server/specs/oas').expect(200)).body;
});
afterAll(async () => {
  for (const close of closers) await close();
});

const oasPath = (expressPath: string) => expressPath.replace(/:(\w+)/g, '{$1}');
const oasMethod = (method: string) => (method === 'search' ? 'x-search' : method);
const key = (method: string, path: string) => `${method} ${path}`;

/** The resolved JSON Schema of an operation's request body. */
function bodySchemaOf(op: Json | undefined): Json | undefined {
  const content = (op?.requestBody as { content?: Record<string, { schema: Json }> } | undefined)?.content;
  const schema = content?.['application/json']?.schema;
  if (!schema) return undefined;
  const ref = schema.$ref as string | undefined;
  return ref ? doc.components.schemas[ref.replace('#/components/schemas/', '')] : schema;
}

/** Every operation of the document that takes a JSON body, as "method /path". */
function documentedBodies(): { method: string; path: string; schema: Json }[] {
  const out = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [m, op] of Object.entries(item)) {
      const schema = bodySchemaOf(op);
      if (schema) out.push({ method: m === 'x-search' ? 'search' : m, path, schema });
    }
  }
  return out;
}

function serviceRoute(method: string, path: string): { service: Service; route: RouteEntry } | undefined {
  for (const service of services) {
    const route = service.routes.find((r) => r.method === method && oasPath(r.path) === path);
    if (route) return { service, route };
  }
  return undefined;
}

describe('the OpenAPI document and the services validate request bodies with the same schemas', () => {
  it('every service route that declares a body schema is documented with the JSON Schema generated from that very schema', () => {
    const declared = services.flatMap((s) => s.routes.filter((r) => r.body).map((r) => ({ service: s.name, ...r })));
    expect(declared.length).toBeGreaterThanOrEqual(23);
    for (const r of declared) {
      const op = doc.paths[oasPath(r.path)]?.[oasMethod(r.method)];
      expect([r.service, key(r.method, r.path), bodySchemaOf(op)]).toEqual([r.service, key(r.method, r.path), requestBodyJsonSchema(r.body!)]);
    }
  });

  it('every documented request body belongs to a service route that validates with it (or is the gateway’s own)', () => {
    const documented = documentedBodies();
    expect(documented.length).toBeGreaterThanOrEqual(24);
    for (const { method, path, schema } of documented) {
      if (GATEWAY_OWN.has(key(method, path))) continue;
      const found = serviceRoute(method, path);
      expect([key(method, path), found ? 'served' : 'no service route']).toEqual([key(method, path), 'served']);
      expect([key(method, path), found!.route.body ? requestBodyJsonSchema(found!.route.body) : 'no body schema']).toEqual([key(method, path), schema]);
    }
    expect([...GATEWAY_OWN].every((k) => documented.some((d) => key(d.method, d.path) === k))).toBe(true);
  });
});

// ---- Bodies built from the document itself ----

const types = (s: Json): string[] => {
  if (Array.isArray(s.type)) return s.type as string[];
  if (typeof s.type === 'string') return [s.type];
  if (Array.isArray(s.anyOf)) return (s.anyOf as Json[]).flatMap(types);
  if (Array.isArray(s.enum)) return [...new Set((s.enum as unknown[]).map((v) => typeof v))];
  return ['any'];
};

/** The first object option of a schema (a union of one object or an array of them documents the object). */
const objectOption = (s: Json): Json | undefined =>
  s.type === 'object' ? s : ((s.anyOf as Json[] | undefined) ?? []).map(objectOption).find((o) => o?.properties);

/** A value the schema accepts (enough for the schemas of this contract: enums, e-mail, uuid and name patterns, date-times). */
function validValue(s: Json): unknown {
  if (Array.isArray(s.anyOf)) return validValue((s.anyOf as Json[])[0]!);
  if (Array.isArray(s.enum)) return (s.enum as unknown[])[0];
  const type = types(s)[0];
  const patterns = [s.pattern, ...((s.allOf as Json[] | undefined) ?? []).map((a) => a.pattern)].filter(Boolean).join(' ');
  if (type === 'string' && s.format === 'date-time') return new Date(Date.now() + 86_400_000).toISOString();
  if (type === 'string') return patterns.includes('@') ? 'someone@example.com' : patterns.includes('{12}') ? ADMIN_ID : 'abc';
  if (type === 'boolean') return true;
  if (type === 'integer' || type === 'number') return Math.max(1, Number(s.minimum ?? 1));
  if (type === 'array') return s.minItems ? [validValue(s.items as Json)] : [];
  if (type === 'object') return validObject(s);
  return null;
}
function validObject(s: Json): Json {
  const props = (s.properties ?? {}) as Record<string, Json>;
  return Object.fromEntries(((s.required ?? []) as string[]).map((k) => [k, validValue(props[k]!)]));
}

/** A value of none of the types the schema allows (undefined when it allows any). */
function wrongValue(s: Json): unknown {
  const allowed = types(s);
  if (allowed.includes('any')) return undefined;
  const candidates: [string, unknown][] = [
    ['number', 12345],
    ['string', 'not-a-valid-value'],
    ['boolean', true],
    ['array', [7]],
    ['object', { x: 1 }],
  ];
  return candidates.find(([t]) => !allowed.includes(t) && !(t === 'number' && allowed.includes('integer')))?.[1];
}

describe('a body that breaks the documented schema is refused by the service that serves the route', () => {
  const send = (service: Service, method: string, path: string, body: unknown) => {
    const url = path.replace(/\{(\w+)\}/g, (_m, p: string) => (p === 'collection' ? 'articles' : ADMIN_ID));
    const verb = method === 'search' ? 'search' : method;
    return (request(service.app) as unknown as Record<string, (u: string) => request.Test>)[verb]!(url)
      .set('Authorization', `Bearer ${service.token}`)
      .send(body as object);
  };

  it('a wrong type in any documented property → 400 INVALID_PAYLOAD naming it, for every documented body', async () => {
    let checked = 0;
    for (const { method, path, schema } of documentedBodies()) {
      if (GATEWAY_OWN.has(key(method, path))) continue;
      const { service } = serviceRoute(method, path)!;
      const object = objectOption(schema);
      if (!object?.properties) continue; // item data (any fields): see the last test
      for (const [name, prop] of Object.entries(object.properties as Record<string, Json>)) {
        const wrong = wrongValue(prop);
        if (wrong === undefined) continue; // any JSON value is allowed
        const body = { ...validObject(object), [name]: wrong };
        const r = await send(service, method, path, body);
        const reason = r.body.errors?.[0]?.extensions?.reason as string | undefined;
        expect([key(method, path), body, r.status, r.body.errors?.[0]?.extensions?.code]).toEqual([key(method, path), body, 400, 'INVALID_PAYLOAD']);
        expect([key(method, path), name, reason?.includes(name)]).toEqual([key(method, path), name, true]);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(60);
  });

  it('an undocumented property → 400 INVALID_PAYLOAD where the document closes the object (additionalProperties: false)', async () => {
    let checked = 0;
    for (const { method, path, schema } of documentedBodies()) {
      const object = objectOption(schema);
      if (GATEWAY_OWN.has(key(method, path)) || object?.additionalProperties !== false) continue;
      const r = await send(serviceRoute(method, path)!.service, method, path, {
        ...validObject(object),
        not_documented: 1,
      });
      expect([key(method, path), r.status, r.body.errors?.[0]?.extensions]).toEqual([
        key(method, path),
        400,
        { code: 'INVALID_PAYLOAD', reason: '"not_documented" is not allowed' },
      ]);
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(8);
  });

  it('a body of a type the document does not allow → 400 INVALID_PAYLOAD (item bodies: objects, or arrays of objects)', async () => {
    for (const { method, path, schema } of documentedBodies()) {
      if (GATEWAY_OWN.has(key(method, path))) continue;
      const arrays = types(schema).includes('array');
      const body = arrays ? [7] : types(schema).includes('object') ? [] : {};
      const r = await send(serviceRoute(method, path)!.service, method, path, body);
      expect([key(method, path), body, r.status, r.body.errors?.[0]?.extensions?.code]).toEqual([key(method, path), body, 400, 'INVALID_PAYLOAD']);
    }
  });
});
