import { JSONScalar, StringOrFloatScalar, createSubgraph as serveSubgraph, type TextField } from '@vellum/subgraph';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Request, Response } from 'express';
import { Kind, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';
import { rawJson } from '@vellum/http';
import type { RecordsReader } from '../domain/records-reader';
import { RELATIONS, revisionsLayout } from './revisions-layout';

export const REVISIONS_SDL = readFileSync(path.join(__dirname, 'schema.graphql'), 'utf8');

interface GqlContext {
  req: Request;
  res: Response;
}
type Args = Record<string, unknown>;

/** The selection set → query-language field paths (`activity { user { id } }` → `activity.user`). */
function fieldPaths(set: SelectionSetNode | undefined, type: string, info: GraphQLResolveInfo, prefix = '', out = new Set<string>()): Set<string> {
  for (const sel of set?.selections ?? []) {
    if (sel.kind === Kind.INLINE_FRAGMENT) fieldPaths(sel.selectionSet, type, info, prefix, out);
    else if (sel.kind === Kind.FRAGMENT_SPREAD) fieldPaths(info.fragments[sel.name.value]?.selectionSet, type, info, prefix, out);
    else {
      const name = sel.name.value;
      if (name.startsWith('__')) continue;
      const rel = RELATIONS[type]?.[name];
      if (rel && sel.selectionSet) {
        const before = out.size;
        fieldPaths(sel.selectionSet, rel, info, `${prefix}${name}.`, out);
        if (out.size === before) out.add(`${prefix}${name}.id`);
      } else out.add(`${prefix}${name}`);
    }
  }
  return out;
}

function selected(info: GraphQLResolveInfo): Map<string, SelectionSetNode | undefined> {
  const out = new Map<string, SelectionSetNode | undefined>();
  const walk = (set: SelectionSetNode | undefined) => {
    for (const sel of set?.selections ?? []) {
      if (sel.kind === Kind.INLINE_FRAGMENT) walk(sel.selectionSet);
      else if (sel.kind === Kind.FRAGMENT_SPREAD) walk(info.fragments[sel.name.value]?.selectionSet);
      else out.set(sel.name.value, sel.selectionSet);
    }
  };
  for (const node of info.fieldNodes) walk(node.selectionSet);
  return out;
}

const listArgs = (args: Args) => ({
  filter: args.filter ?? undefined,
  sort: args.sort ?? undefined,
  limit: args.limit ?? undefined,
  offset: args.offset ?? undefined,
  page: args.page ?? undefined,
  search: args.search ?? undefined,
});

export function createSubgraph(reader: RecordsReader) {
  const resolvers = {
    JSON: JSONScalar,
    GraphQLStringOrFloat: StringOrFloatScalar,
    Query: {
      revisions: async (_: unknown, args: Args, { req }: GqlContext, info: GraphQLResolveInfo) => {
        const fields = [...fieldPaths(info.fieldNodes[0]?.selectionSet, 'vellum_revisions', info)];
        const raw = { ...listArgs(args), fields: fields.length ? fields : ['id'] };
        // `data`/`delta` pass from the database's text to the response (the subgraph's stringifyResult); the plan is
        // cached by everything it is made of (the arguments with variables applied, and the selected fields)
        const opts = { jsonText: rawJson, cacheKey: `GRAPHQL ${JSON.stringify(raw)}` };
        return (await reader.list('revisions', req.accountability, reader.parse(raw), opts)).data;
      },
      revisions_by_id: async (_: unknown, args: Args, { req }: GqlContext, info: GraphQLResolveInfo) => {
        const fields = [...fieldPaths(info.fieldNodes[0]?.selectionSet, 'vellum_revisions', info)];
        return reader.one('revisions', req.accountability, String(args.id), reader.parse({ fields: fields.length ? fields : ['id'] }), { jsonText: rawJson });
      },
      revisions_aggregated: async (_: unknown, args: Args, { req }: GqlContext, info: GraphQLResolveInfo) => {
        const sel = selected(info);
        const aggregate: Record<string, string[]> = {};
        if (sel.has('countAll')) aggregate.count = ['*'];
        for (const fn of ['count', 'countDistinct', 'avg', 'sum', 'min', 'max']) {
          const set = sel.get(fn);
          if (!set) continue;
          const names = set.selections.flatMap((s) => (s.kind === Kind.FIELD && !s.name.value.startsWith('__') ? [s.name.value] : []));
          if (names.length) aggregate[fn] = [...(aggregate[fn] ?? []), ...names];
        }
        const groupBy = (args.groupBy as string[] | null | undefined) ?? [];
        const q = reader.parse({
          ...listArgs(args),
          groupBy,
          aggregate: Object.keys(aggregate).length ? aggregate : groupBy.length ? undefined : { count: ['*'] },
        });
        const { data } = await reader.list('revisions', req.accountability, q);
        return data.map((row) => {
          const count = row.count as number | Record<string, number> | undefined;
          return {
            ...row,
            group: Object.fromEntries(groupBy.map((g) => [g, row[g]])),
            countAll: typeof count === 'number' ? count : count?.['*'],
            count: typeof count === 'number' ? null : count,
          };
        });
      },
    },
    vellum_activity: {
      user: (a: { user?: string | null }) => (a.user ? { id: a.user } : null),
    },
  };
  // the list written as JSON text straight from the rows when its selection allows (revisions-layout.ts); the
  // resolvers above answer everything else, and whatever the text path leaves
  const lists = new WeakMap<object, { raw: object; opts: { jsonText: typeof rawJson; cacheKey: string } }>();
  const textFields: Record<string, TextField> = {
    revisions: async (args, { req }, field, def) => {
      const l = revisionsLayout(field, def);
      if (!l) return undefined;
      let list = lists.get(args);
      if (!list) {
        // frozen: parsed once by the reader while kept here (a document without variables: the same args object)
        const raw = Object.freeze({ ...listArgs(args), fields: Object.freeze(l.fields) });
        // the same plan (and cache key) as the resolver's: the same arguments and fields
        list = { raw, opts: { jsonText: rawJson, cacheKey: `GRAPHQL ${JSON.stringify(raw)}` } };
        if (Object.isFrozen(args)) lists.set(args, list);
      }
      return reader.listLayout('revisions', req.accountability, reader.parse(list.raw), list.opts, l.layout);
    },
  };
  return serveSubgraph(REVISIONS_SDL, resolvers, { textFields });
}
