import { requestBodies, requestBodyJsonSchema, type RequestBodyName } from '@vellum/contracts';
import { schemas } from './api-schemas';
import { ROUTES, type RouteDefinition } from './route-definitions';

type Json = Record<string, unknown>;
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const QUERY_PARAMS: Json[] = [
  { name: 'fields', in: 'query', description: 'Comma list or array; `*`, nested paths', schema: { type: 'string' } },
  { name: 'filter', in: 'query', description: 'JSON or bracket form', schema: { type: 'string' } },
  { name: 'search', in: 'query', schema: { type: 'string' } },
  { name: 'sort', in: 'query', description: 'Comma list; `-` = descending; `?` = random', schema: { type: 'string' } },
  { name: 'limit', in: 'query', schema: { type: 'integer', minimum: -1 } },
  { name: 'offset', in: 'query', schema: { type: 'integer', minimum: 0 } },
  { name: 'page', in: 'query', schema: { type: 'integer', minimum: 1 } },
  { name: 'meta', in: 'query', schema: { type: 'string', enum: ['total_count', 'filter_count', '*'] } },
  { name: 'aggregate', in: 'query', schema: { type: 'string' } },
  { name: 'groupBy', in: 'query', schema: { type: 'string' } },
];

function responseSchema(spec: string): Json {
  const [kind, name] = spec.includes(':') ? spec.split(':') : ['', spec];
  if (kind === 'List') return { type: 'object', required: ['data'], properties: { data: { type: 'array', items: ref(name) }, meta: ref('Meta') } };
  if (kind === 'One') return { type: 'object', required: ['data'], properties: { data: ref(name) } };
  return ref(name);
}

function operation(r: RouteDefinition): Json {
  const responses: Json = {};
  for (const [status, spec] of Object.entries(r.responses)) {
    if (spec === null) responses[status] = { description: status === '204' ? 'No content' : 'Redirect' };
    else if (spec === 'EventStream')
      responses[status] = {
        description:
          'text/event-stream: `id` = the revision id, `data` = the revision as /revisions shows it; `event: reset` (`{"earliest"}`), `event: auth_expired`; comment lines as heartbeats',
        content: { 'text/event-stream': { schema: { type: 'string' } } },
      };
    else if (spec === 'Text') responses[status] = { description: 'OK', content: { 'text/plain': { schema: { type: 'string' } } } };
    else responses[status] = { description: 'OK', content: { 'application/json': { schema: responseSchema(spec) } } };
  }
  const error = { content: { 'application/json': { schema: ref('Error') } } };
  responses['4XX'] = { description: 'Client error (the contract’s envelope: INVALID_PAYLOAD, TOKEN_EXPIRED, FORBIDDEN, REQUESTS_EXCEEDED…)', ...error };
  responses['5XX'] = { description: 'INTERNAL_SERVER_ERROR or SERVICE_UNAVAILABLE', ...error };
  const parameters: Json[] = [...r.path.matchAll(/\{(\w+)\}/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } }));
  if (r.query === true) parameters.push(...QUERY_PARAMS);
  else if (r.query === 'fields') parameters.push(QUERY_PARAMS[0]!);
  else if (r.query === 'stream')
    parameters.push(QUERY_PARAMS[0]!, QUERY_PARAMS[1]!, {
      name: 'since',
      in: 'query',
      description: 'Resume after this revision id (the `Last-Event-ID` header wins)',
      schema: { type: 'integer', minimum: 0 },
    });
  if (r.versioned)
    parameters.push({ name: 'version', in: 'query', description: 'A content version key: the items as that version has them', schema: { type: 'string' } });
  parameters.push({ name: 'access_token', in: 'query', description: 'Access token (not together with Authorization)', schema: { type: 'string' } });
  const op: Json = {
    operationId: `${r.method}${r.path.replace(/\{(\w+)\}/g, 'By_$1').replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
    summary: r.summary,
    tags: [r.tag],
    parameters,
    responses,
    'x-access': r.access,
    security: r.access === 'public' ? [{}, { bearerAuth: [] }, { sessionCookie: [] }] : [{ bearerAuth: [] }, { sessionCookie: [] }],
  };
  if (r.body) {
    // A body the service's schema lets the client leave out (auth, SEARCH: no body reads as `{}`) is not required.
    const required = r.body === 'GraphQLRequest' || !requestBodies[r.body].safeParse(undefined).success;
    op.requestBody = { required, content: { 'application/json': { schema: ref(r.body) } } };
  }
  return op;
}

/** The request body components, generated from the zod schemas the services validate with (one source of truth). */
function requestBodyComponents(): Record<RequestBodyName, Json> {
  return Object.fromEntries(Object.entries(requestBodies).map(([name, schema]) => [name, requestBodyJsonSchema(schema)])) as Record<RequestBodyName, Json>;
}

/**
 * The OpenAPI 3.1 document of contract §3–§7, generated from the route table and the JSON Schemas.
 * SEARCH has no slot in an OpenAPI 3.1 path item, so it is described under the `x-search` extension.
 */
export function buildOpenApi(opts: { serverUrl?: string; version?: string } = {}): Json {
  const paths: Record<string, Json> = {};
  for (const r of ROUTES) {
    const item = (paths[r.path] ??= {});
    item[r.method === 'search' ? 'x-search' : r.method] = operation(r);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Vellum',
      version: opts.version ?? '0.1.0',
      description: 'Identity and history tier of a content platform, wire-compatible with Directus (see the API contract).',
    },
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    servers: [{ url: opts.serverUrl ?? '/' }],
    tags: [...new Set(ROUTES.map((r) => r.tag))].map((name) => ({ name })),
    paths,
    components: {
      schemas: { ...schemas, ...requestBodyComponents() },
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        sessionCookie: { type: 'apiKey', in: 'cookie', name: 'vellum_session_token' },
      },
    },
  };
}
