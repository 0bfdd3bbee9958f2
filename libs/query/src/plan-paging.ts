import type { PlanContext } from './plan-context';
import type { OrderPlan } from './plan-sort';
import type { Statement } from './statement';

/**
 * A row count of LIMIT or OFFSET, written into the statement: a parameter there makes a prepared statement's generic
 * plan assume a tenth of the rows, so PostgreSQL plans each execution anew (over monthly partitions, more than a 25-row
 * page costs to execute); written in, the plan is made once per connection and text. Not an integer
 * ≥ 0 (the parser never gives one): a parameter.
 */
export const rowCountSql = (s: Statement, n: number): string => (Number.isSafeInteger(n) && n >= 0 ? String(n) : s.params.add(n, 'int8'));

/** ` LIMIT n OFFSET m` (each only when it limits: -1 = all, 0 = from the start). */
export function pageSql(s: Statement, limit = s.ctx.query.limit, offset = s.ctx.query.offset): string {
  let sql = '';
  if (limit !== -1) sql += ` LIMIT ${rowCountSql(s, limit)}`;
  if (offset > 0) sql += ` OFFSET ${rowCountSql(s, offset)}`;
  return sql;
}

/** A deep page (from PlanOptions.deferredJoinOffset on, not in random order): read keys first, then join the rows. */
export const isDeferred = (ctx: PlanContext): boolean => ctx.query.offset >= ctx.deferFrom && !ctx.query.random;

/** PlanOptions.seek's statement for a deep page in key order without a cursor (null: not for this query). */
export function seekSql(s: Statement, order: OrderPlan): string | null {
  const { opts, query } = s.ctx;
  if (!isDeferred(s.ctx) || !order.keyset || order.after !== undefined) return null;
  return opts.seek?.({ desc: order.keysetDesc, offset: query.offset, params: s.params }) ?? null;
}

/**
 * A deep page past the middle of PlanOptions.totalHint rows, read from the other end: rows [offset, offset + limit)
 * of `total` are rows [total - offset - limit, total - offset) in the reverse order. Null when that does not apply.
 */
export function reversedPage(ctx: PlanContext, order: OrderPlan): { limit: number; offset: number } | null {
  const { query } = ctx;
  const total = ctx.opts.totalHint;
  if (!isDeferred(ctx) || total === undefined || query.limit === -1 || order.after !== undefined || query.offset <= total / 2) return null;
  const remaining = Math.max(0, total - query.offset);
  const offset = Math.max(0, remaining - query.limit);
  return { limit: remaining - offset, offset };
}
