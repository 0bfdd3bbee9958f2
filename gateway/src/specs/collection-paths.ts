import http from 'node:http';
import https from 'node:https';
import type { UpstreamPool } from '../proxy/upstream-pool';

type Json = Record<string, unknown>;
interface CollectionInfo {
  collection: string;
  primary_key?: string;
  fields: { field: string; type: string; schema: { is_nullable?: boolean } | null }[];
}

/** JSON Schema of a field type as the API sends its values. */
const JSON_TYPE: Record<string, Json> = {
  integer: { type: 'integer' },
  bigInteger: { type: 'integer' },
  float: { type: 'number' },
  decimal: { type: 'string', description: 'decimal, as a string' },
  string: { type: 'string' },
  text: { type: 'string' },
  boolean: { type: 'boolean' },
  uuid: { type: 'string', format: 'uuid' },
  json: {},
  date: { type: 'string', format: 'date' },
  dateTime: { type: 'string' },
  timestamp: { type: 'string', format: 'date-time' },
};

const schemaName = (c: string) => `Items${c.replace(/(^|_)([a-z0-9])/g, (_, __, ch: string) => ch.toUpperCase())}`;

/**
 * GET /collections of the items service as the caller (its bearer token or session cookie): the collections and
 * fields that caller may read. Nothing (no collection paths) when it does not answer within `timeoutMs`.
 */
export function fetchCollections(pool: UpstreamPool, headers: { authorization?: string; cookie?: string }, timeoutMs = 2000): Promise<CollectionInfo[]> {
  const replica = pool.replicas.find((r) => r.downUntil <= Date.now()) ?? pool.replicas[0];
  if (!replica) return Promise.resolve([]);
  const url = replica.url;
  const base = url.pathname === '/' ? '' : url.pathname;
  const auth = Object.fromEntries(Object.entries(headers).filter(([, v]) => v !== undefined)) as Record<string, string>;
  return new Promise((resolve) => {
    const req = (url.protocol === 'https:' ? https : http).get(
      {
        hostname: url.hostname,
        port: url.port,
        path: `${base}/collections`,
        agent: replica.agent,
        timeout: timeoutMs,
        headers: { accept: 'application/json', ...auth },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          try {
            resolve(res.statusCode === 200 ? ((JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data: CollectionInfo[] }).data ?? []) : []);
          } catch {
            resolve([]);
          }
        });
        res.on('error', () => resolve([]));
      },
    );
    const timer = setTimeout(() => req.destroy(new Error('timeout')), timeoutMs);
    req.on('close', () => clearTimeout(timer));
    req.on('error', () => resolve([]));
  });
}

/**
 * The document with each collection's own paths and item schema (`/items/<name>`, `/items/<name>/{id}`,
 * `Items<Name>`), as Directus's specification does: a schema change shows at the next request.
 */
export function withCollections(doc: Json, collections: CollectionInfo[]): Json {
  if (collections.length === 0) return doc;
  const paths = { ...(doc.paths as Json) };
  const components = doc.components as { schemas: Json };
  const schemas = { ...components.schemas };
  const ref = (c: string) => ({ $ref: `#/components/schemas/${schemaName(c)}` });
  const answer = (data: Json) => ({ '200': { description: 'OK', content: { 'application/json': { schema: { type: 'object', properties: { data } } } } } });
  const security = [{ bearerAuth: [] }, { sessionCookie: [] }, {}];
  for (const c of collections) {
    const properties = Object.fromEntries(
      c.fields
        .filter((f) => f.type !== 'alias')
        .map((f) => [f.field, f.schema?.is_nullable === false ? (JSON_TYPE[f.type] ?? {}) : { anyOf: [JSON_TYPE[f.type] ?? {}, { type: 'null' }] }]),
    );
    schemas[schemaName(c.collection)] = { type: 'object', properties, additionalProperties: true };
    const tags = [`items/${c.collection}`];
    const id = [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }];
    const body = { required: true, content: { 'application/json': { schema: ref(c.collection) } } };
    paths[`/items/${c.collection}`] = {
      get: { tags, summary: `List ${c.collection}`, security, responses: answer({ type: 'array', items: ref(c.collection) }) },
      post: { tags, summary: `Create ${c.collection}`, security, requestBody: body, responses: answer(ref(c.collection)) },
    };
    paths[`/items/${c.collection}/{id}`] = {
      get: { tags, summary: `One item of ${c.collection}`, security, parameters: id, responses: answer(ref(c.collection)) },
      patch: { tags, summary: `Change an item of ${c.collection}`, security, parameters: id, requestBody: body, responses: answer(ref(c.collection)) },
      delete: { tags, summary: `Delete an item of ${c.collection}`, security, parameters: id, responses: { '204': { description: 'Deleted' } } },
    };
  }
  return { ...doc, paths, components: { ...components, schemas } };
}
