import { errors } from '@vellum/errors';
import { ROOT, type PlanContext } from './plan-context';
import type { TreeNode } from './plan-fields';
import { whereSql } from './plan-filters';
import { isDeferred, pageSql, reversedPage, seekSql } from './plan-paging';
import { orderBySql, type OrderPlan } from './plan-sort';
import type { Sql } from './params';
import { selectColumns } from './select-columns';
import { Statement } from './statement';
import { SQL_CAST, typedValue } from './values';

/**
 * The list statement: the selected columns and the key (`_k`), the row filter, filter, search and cursor, the order,
 * the page — for a deep page as a deferred join (keys first, from `seek`'s start or read from the nearer end).
 */
export function listSql(ctx: PlanContext, tree: TreeNode, order: OrderPlan): Sql {
  const { query, rootFrom, pkExpr } = ctx;
  const s = new Statement(ctx);
  const cols = selectColumns(s, tree);
  cols.push(`${pkExpr} AS "_k"`);
  const where = whereSql(s, true, order.after === undefined ? undefined : { after: order.after, desc: order.keysetDesc });
  const orderBy = orderBySql(s, order);
  const seek = seekSql(s, order);
  if (seek) {
    const joins = s.joinText();
    const bound = `${pkExpr} ${order.keysetDesc ? '<=' : '>='} (SELECT "lo" FROM "seek")`;
    const seekWhere = where ? `${where} AND ${bound}` : ` WHERE ${bound}`;
    const limit = query.limit !== -1 ? ` LIMIT ${s.params.add(query.limit, 'int8')}` : '';
    const inner = `SELECT ${pkExpr} AS "_d" FROM ${rootFrom}${joins}${seekWhere}${orderBy}${limit} OFFSET (SELECT "skip" FROM "seek")`;
    return {
      text: `WITH "seek" AS (${seek}) SELECT ${cols.join(', ')} FROM ${rootFrom} JOIN (${inner}) AS d ON d."_d" = ${pkExpr}${joins}${orderBy}`,
      values: s.params.values,
    };
  }
  const reverse = reversedPage(ctx, order);
  const innerOrder = reverse ? orderBySql(s, order, true) : orderBy;
  const page = reverse ? pageSql(s, reverse.limit, reverse.offset) : pageSql(s);
  const joins = s.joinText();
  if (isDeferred(ctx)) {
    const inner = `SELECT ${pkExpr} AS "_d" FROM ${rootFrom}${joins}${where}${innerOrder}${page}`;
    return { text: `SELECT ${cols.join(', ')} FROM ${rootFrom} JOIN (${inner}) AS d ON d."_d" = ${pkExpr}${joins}${orderBy}`, values: s.params.values };
  }
  return { text: `SELECT ${cols.join(', ')} FROM ${rootFrom}${joins}${where}${orderBy}${page}`, values: s.params.values };
}

/** One row by primary key with the row filter; 403 for an id that cannot be a key. */
export function oneSql(ctx: PlanContext, tree: TreeNode, id: unknown): Sql {
  const { root, rootPk, rootFrom, pkExpr, opts } = ctx;
  let key: string | number | boolean;
  try {
    key = typedValue(root.primaryKey, rootPk.type, id);
  } catch {
    throw errors.forbidden();
  }
  const s = new Statement(ctx);
  const cols = selectColumns(s, tree);
  const rf = opts.rowFilter?.(root, ROOT, s.params);
  const cond = `${pkExpr} = ${s.params.add(key, SQL_CAST[rootPk.type])}${rf ? ` AND (${rf})` : ''}`;
  return { text: `SELECT ${cols.join(', ')} FROM ${rootFrom}${s.joinText()} WHERE ${cond} LIMIT 1`, values: s.params.values };
}
