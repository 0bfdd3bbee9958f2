// The schemas and option sets of the characterisation cases (plan-cases.ts).
import { defineSchema, type PlanOptions, type QuerySchema } from '../src';
import { schema as revisions } from './fixtures';

const now = new Date('2026-03-10T12:00:00.000Z');

/** Every field type, a concealed field and relations (the items service's shape). */
const items = defineSchema({
  articles: {
    ...{ name: 'articles', table: 'articles', primaryKey: 'id' },
    fields: {
      ...{ id: { type: 'integer' }, title: { type: 'string' }, body: { type: 'text', column: 'body_text' }, score: { type: 'float' } },
      ...{ price: { type: 'decimal' }, views: { type: 'bigInteger', searchable: false }, published: { type: 'boolean' }, token: { type: 'uuid' } },
      ...{ meta: { type: 'json' }, day: { type: 'date' }, at: { type: 'dateTime' }, stamp: { type: 'timestamp' } },
      ...{ secret: { type: 'string', concealed: true }, author: { type: 'uuid', relation: 'authors' } },
    },
  },
  authors: {
    ...{ name: 'authors', table: 'authors', primaryKey: 'id' },
    fields: {
      ...{ id: { type: 'uuid' }, name: { type: 'string' }, password: { type: 'string', concealed: true } },
      ...{ mentor: { type: 'uuid', relation: 'authors' }, profile: { type: 'json' } },
    },
  },
});

export const SCHEMAS: Record<string, QuerySchema> = { revisions, items };
export const ROOTS: Record<string, string> = { revisions: 'revisions', items: 'articles' };

const base: PlanOptions = { now, user: 'u-1', role: 'r-1' };
const seek: PlanOptions['seek'] = ({ desc, offset, params }) =>
  offset > 50_000 ? null : `SELECT ${desc ? 9000 : 10} AS "lo", ${params.add(offset % 4096, 'int8')} AS "skip"`;

/** Option sets by name (functions cannot live in JSON). */
export const OPTIONS: Record<string, PlanOptions> = {
  plain: base,
  anonymous: { now },
  permissions: {
    ...base,
    rowFilter: (t, alias, params) =>
      t.name === 'activity' ? null : `${alias}."${t.name === 'revisions' ? 'collection' : 'name'}" = ANY(${params.add(['a', 'b'], 'text[]')})`,
    project: ({ def, expr, params, depth }) => (def.type === 'json' ? `pick${depth}(${expr}, ${params.add('{"k":1}', 'jsonb')})` : expr),
  },
  reduce: {
    ...base,
    jsonText: (text) => ({ raw: text }),
    reduce: ({ field, depth }) =>
      field === 'data' || field === 'profile'
        ? {
            with: depth === 0 && field === 'data' ? ['collection', 'item'] : ['id'],
            map: (v, ...w) => ({ v, w }),
            whole: (c) => c === 'a' || typeof c === 'string',
          }
        : undefined,
    project: ({ def, expr }) => (def.type === 'json' ? `proj(${expr})` : expr),
  },
  jsonText: { ...base, jsonText: (text) => ({ raw: text }) },
  deep: { ...base, deferredJoinOffset: 10, totalHint: 1000 },
  seek: { ...base, deferredJoinOffset: 100, seek, totalHint: 100_000 },
  shallow: { ...base, maxDepth: 1 },
};
