import type { PlanOptions } from './plan-options';
import type { Query } from './query';
import { quoteIdent as q, type FieldSchema, type QuerySchema, type TableSchema } from './schema';
import type { ValueContext } from './values';
import type { Params } from './params';

/** The alias of the root table in every statement. */
export const ROOT = 'r';

/** A field's column, quoted. */
export const col = (name: string, def: FieldSchema) => q(def.column ?? name);

export const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What every planning stage reads: the query, its root table and the options with their defaults. */
export interface PlanContext {
  schema: QuerySchema;
  query: Query;
  opts: PlanOptions;
  root: TableSchema;
  rootPk: FieldSchema;
  /** Max relation depth in a path. */
  maxDepth: number;
  valueCtx: ValueContext;
  /** `"table" AS r` (statements use `fromRoot`, which honours `opts.rootSource`) */
  rootFrom: string;
  /** The root's primary key column, `r."id"`. */
  pkExpr: string;
  /** From this offset on, lists use a deferred join. */
  deferFrom: number;
}

/** The context of a query on `rootName`; an unknown table is a programming error (not a request's). */
export function planContext(schema: QuerySchema, rootName: string, query: Query, opts: PlanOptions): PlanContext {
  if (!Object.hasOwn(schema, rootName)) throw new Error(`planQuery: unknown table ${rootName}`);
  const root = schema[rootName]!;
  const rootPk = root.fields[root.primaryKey]!;
  return {
    schema,
    query,
    opts,
    root,
    rootPk,
    maxDepth: opts.maxDepth ?? 3,
    valueCtx: { now: opts.now ?? new Date(), user: opts.user ?? null, role: opts.role ?? null },
    rootFrom: `${q(root.table)} AS ${ROOT}`,
    pkExpr: `${ROOT}.${col(root.primaryKey, rootPk)}`,
    deferFrom: opts.deferredJoinOffset ?? 1000,
  };
}

const sources = new WeakMap<Params, string>();
/** The root in a statement's FROM: `"table" AS r`, or `(source) AS r` with `opts.rootSource` (its values added to `params` once). */
export function fromRoot(ctx: PlanContext, params: Params): string {
  if (!ctx.opts.rootSource) return ctx.rootFrom;
  let from = sources.get(params);
  if (from === undefined) sources.set(params, (from = `(${ctx.opts.rootSource(params)}) AS ${ROOT}`));
  return from;
}

/** The table a relation field points to (defineSchema checked it exists). */
export const related = (ctx: PlanContext, def: FieldSchema): TableSchema => ctx.schema[def.relation!]!;
