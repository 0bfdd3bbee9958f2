import { errors } from '@vellum/errors';
import { parseQuery, planQuery, type Plan, type Query } from '@vellum/query';
import type { AuthContext } from './context';
import { authQuerySchema, type AuthEntity } from './auth-query-schema';

export interface ListResult {
  data: Record<string, unknown>[];
  meta?: Record<string, number>;
}

/** The order of a list without `sort` (before: the same; the primary key breaks ties). */
const DEFAULT_SORT: Record<AuthEntity, string> = { users: 'email', roles: 'name', permissions: 'id' };

function parse(ctx: AuthContext, raw: unknown): Query {
  const max = ctx.config.QUERY_LIMIT_MAX;
  return parseQuery(raw, { limitDefault: ctx.config.QUERY_LIMIT_DEFAULT, limitMax: max >= 0 ? max : undefined });
}

function plan(ctx: AuthContext, entity: AuthEntity, query: Query): Plan {
  const grouped = query.aggregate !== null || query.groupBy.length > 0;
  const q = query.sort || query.random || grouped ? query : { ...query, sort: [{ path: DEFAULT_SORT[entity], desc: false }] };
  return planQuery(authQuerySchema, entity, q, { now: ctx.clock.now() });
}

/**
 * `GET`/`SEARCH /users|roles|permissions` (admin): the query language of `/revisions` and `/items` (libs/query) —
 * `fields`, `filter`, `search`, `sort`, `limit`/`offset`/`page`, `meta`, `aggregate`/`groupBy` — over the API shape
 * of the auth tables (auth-query-schema.ts). An unknown or secret field is 403, a bad value or operator 400.
 */
export async function readAuthList(ctx: AuthContext, entity: AuthEntity, raw: unknown): Promise<ListResult> {
  const query = parse(ctx, raw);
  const p = plan(ctx, entity, query);
  const count = async (which: 'total' | 'filter') => Number((await ctx.pg.query<{ n: string }>(p.count(which))).rows[0]?.n ?? 0);
  const [rows, total, filtered] = await Promise.all([
    query.limit === 0 && p.kind === 'list' ? [] : ctx.pg.query(p.list()).then((r) => r.rows),
    query.meta.includes('total_count') ? count('total') : undefined,
    query.meta.includes('filter_count') ? count('filter') : undefined,
  ]);
  const data = p.shape(rows);
  if (query.meta.length === 0) return { data };
  const meta: Record<string, number> = {};
  if (total !== undefined) meta.total_count = total;
  if (filtered !== undefined) meta.filter_count = filtered;
  return { data, meta };
}

/** `GET /users|roles|permissions/:id` with `fields`; an id that does not exist or cannot be one is 403. */
export async function readAuthOne(ctx: AuthContext, entity: AuthEntity, id: string, raw: unknown): Promise<Record<string, unknown> | undefined> {
  const fields = typeof raw === 'object' && raw !== null && Object.hasOwn(raw, 'fields') ? { fields: (raw as { fields: unknown }).fields } : {};
  const p = planQuery(authQuerySchema, entity, parse(ctx, fields), { now: ctx.clock.now() });
  const { rows } = await ctx.pg.query(p.one(id));
  return rows.length ? p.shape(rows)[0] : undefined;
}

/**
 * The `list` and `get` of the use case over `entity` (users, roles, permissions). `get`: only the query's `fields`
 * is used; a row that does not exist is 403. `toId` checks and normalises the id first (permissions: a number).
 */
export function authReads(entity: AuthEntity, toId: (id: string) => string = (id) => id) {
  return {
    list(ctx: AuthContext, query: unknown) {
      return readAuthList(ctx, entity, query);
    },
    async get(ctx: AuthContext, id: string, query: unknown = {}) {
      const row = await readAuthOne(ctx, entity, toId(id), query);
      if (!row) throw errors.forbidden();
      return row;
    },
  };
}
