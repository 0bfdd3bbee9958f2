import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Request, Response } from 'express';
import { GraphQLScalarType, Kind, type GraphQLResolveInfo, type ValueNode } from 'graphql';
import { createSubgraph as serveSubgraph } from '@vellum/subgraph';
import type { ItemsDeps } from '../domain/items-deps';
import { readVersion, readVersions } from '../domain/read-versions';

export const ITEMS_SDL = readFileSync(path.join(__dirname, 'schema.graphql'), 'utf8');

interface GqlContext {
  req: Request;
  res: Response;
}
type Args = Record<string, unknown>;
type Row = Record<string, unknown>;

/** A literal as its JSON value (variables applied). */
const literal = (node: ValueNode, variables?: Record<string, unknown> | null): unknown => {
  switch (node.kind) {
    case Kind.INT:
    case Kind.FLOAT:
      return Number(node.value);
    case Kind.STRING:
    case Kind.ENUM:
    case Kind.BOOLEAN:
      return node.value;
    case Kind.NULL:
      return null;
    case Kind.LIST:
      return node.values.map((v) => literal(v, variables));
    case Kind.OBJECT:
      return Object.fromEntries(node.fields.map((f) => [f.name.value, literal(f.value, variables)]));
    case Kind.VARIABLE:
      return variables?.[node.name.value];
  }
};

const JSONScalar = new GraphQLScalarType({ name: 'JSON', serialize: (v) => v, parseValue: (v) => v, parseLiteral: literal });
const StringOrFloat = new GraphQLScalarType({
  name: 'GraphQLStringOrFloat',
  serialize: (v) => v,
  parseValue: (v) => {
    if (typeof v === 'string' || typeof v === 'number') return v;
    throw new TypeError('GraphQLStringOrFloat must be a string or a number');
  },
  parseLiteral: (node) => {
    if (node.kind === Kind.STRING) return node.value;
    if (node.kind === Kind.INT || node.kind === Kind.FLOAT) return Number(node.value);
    throw new TypeError('GraphQLStringOrFloat must be a string or a number');
  },
});

/** The version's fields the query selects (top level: `user_created { … }` is the column). */
function selectedFields(info: GraphQLResolveInfo): string[] {
  const out = new Set<string>();
  const walk = (set: (typeof info.fieldNodes)[number]['selectionSet']) => {
    for (const sel of set?.selections ?? []) {
      if (sel.kind === Kind.INLINE_FRAGMENT) walk(sel.selectionSet);
      else if (sel.kind === Kind.FRAGMENT_SPREAD) walk(info.fragments[sel.name.value]?.selectionSet);
      else if (!sel.name.value.startsWith('__')) out.add(sel.name.value);
    }
  };
  for (const node of info.fieldNodes) walk(node.selectionSet);
  return out.size ? [...out] : ['id'];
}

/** A row as the GraphQL type has it: the users as `vellum_users` references (resolved by the auth subgraph). */
const asVersion = (r: Row): Row => {
  const user = (k: string) => (Object.hasOwn(r, k) ? { [k]: r[k] ? { id: r[k] } : null } : {});
  return { ...r, ...user('user_created'), ...user('user_updated') };
};

/**
 * The items subgraph of `/graphql/system`: `versions` and `versions_by_id` (Directus 11's system queries), read by
 * the REST reads (read-versions.ts) with the same rules: versions of the collections the caller may read, each
 * `delta` cut to its readable fields.
 */
export function createItemsSubgraph(deps: ItemsDeps) {
  const resolvers = {
    JSON: JSONScalar,
    GraphQLStringOrFloat: StringOrFloat,
    Query: {
      versions: async (_: unknown, args: Args, { req }: GqlContext, info: GraphQLResolveInfo) => {
        const raw = {
          fields: selectedFields(info),
          filter: args.filter,
          sort: args.sort,
          limit: args.limit,
          offset: args.offset,
          page: args.page,
          search: args.search,
        };
        const query = Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined && v !== null));
        return ((await readVersions(deps, req.accountability, query)).data as Row[]).map(asVersion);
      },
      versions_by_id: async (_: unknown, args: Args, { req }: GqlContext, info: GraphQLResolveInfo) =>
        asVersion((await readVersion(deps, req.accountability, String(args.id), { fields: selectedFields(info) })) as Row),
    },
  };
  return serveSubgraph(ITEMS_SDL, resolvers);
}
