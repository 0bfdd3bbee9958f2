import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Request, Response } from 'express';
import { Kind, type GraphQLResolveInfo } from 'graphql';
import { JSONScalar, StringOrFloatScalar, createSubgraph as serveSubgraph } from '@vellum/subgraph';
import type { ItemsDeps } from '../domain/items-deps';
import { readVersion, readVersions } from '../domain/read-versions';

export const ITEMS_SDL = readFileSync(path.join(__dirname, 'schema.graphql'), 'utf8');

interface GqlContext {
  req: Request;
  res: Response;
}
type Args = Record<string, unknown>;
type Row = Record<string, unknown>;

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
    GraphQLStringOrFloat: StringOrFloatScalar,
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
