import { errors } from '@vellum/errors';
import { fromRoot, ROOT, type PlanContext } from './plan-context';
import type { TreeNode } from './plan-fields';
import { whereSql } from './plan-filters';
import { isDeferred, pageSql, reversedPage, rowCountSql, seekSql } from './plan-paging';
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
  const { query, pkExpr } = ctx;
  const s = new Statement(ctx);
  const cols = selectColumns(s, tree);
  cols.push(`${pkExpr} AS "_k"`);
  const merged = partitionedListSql(ctx, s, cols, order);
  if (merged) return merged;
  const where = whereSql(s, true, order.after === undefined ? undefined : { after: order.after, desc: order.keysetDesc });
  const orderBy = orderBySql(s, order);
  const seek = seekSql(s, order);
  if (seek) {
    const joins = s.joinText();
    const bound = `${pkExpr} ${order.keysetDesc ? '<=' : '>='} (SELECT "lo" FROM "seek")`;
    const seekWhere = where ? `${where} AND ${bound}` : ` WHERE ${bound}`;
    const limit = query.limit !== -1 ? ` LIMIT ${rowCountSql(s, query.limit)}` : '';
    const inner = `SELECT ${pkExpr} AS "_d" FROM ${fromRoot(ctx, s.params)}${joins}${seekWhere}${orderBy}${limit} OFFSET (SELECT "skip" FROM "seek")`;
    return {
      text: `WITH "seek" AS (${seek}) SELECT ${cols.join(', ')} FROM ${fromRoot(ctx, s.params)} JOIN (${inner}) AS d ON d."_d" = ${pkExpr}${joins}${orderBy}`,
      values: s.params.values,
    };
  }
  const reverse = reversedPage(ctx, order);
  const innerOrder = reverse ? orderBySql(s, order, true) : orderBy;
  const page = reverse ? pageSql(s, reverse.limit, reverse.offset) : pageSql(s);
  const joins = s.joinText();
  if (isDeferred(ctx)) {
    const inner = `SELECT ${pkExpr} AS "_d" FROM ${fromRoot(ctx, s.params)}${joins}${where}${innerOrder}${page}`;
    return {
      text: `SELECT ${cols.join(', ')} FROM ${fromRoot(ctx, s.params)} JOIN (${inner}) AS d ON d."_d" = ${pkExpr}${joins}${orderBy}`,
      values: s.params.values,
    };
  }
  return { text: `SELECT ${cols.join(', ')} FROM ${fromRoot(ctx, s.params)}${joins}${where}${orderBy}${page}`, values: s.params.values };
}

/** Most partitions (PlanOptions.partitions) merged in one statement; more read through the row filter. */
const MAX_PARTITIONS = 64;

/**
 * A deep page (from `deferredJoinOffset` on) of a list ordered by the primary key alone, without filter or search,
 * when the row filter comes as partitions
 * (PlanOptions.partitions): the keys of each partition in key order (an index on (partition column, key) serves
 * each, from `seek`'s start for a deep page), merged (Merge Append) and paged, then the rows joined. Each branch
 * reads at most limit + offset keys; the merge reads only as many as the page needs. A shallow page stays one plain
 * statement: PostgreSQL finds its first rows as fast itself, and the merge costs more to plan. Null: not for this query.
 */
function partitionedListSql(ctx: PlanContext, s: Statement, cols: string[], order: OrderPlan): Sql | null {
  const { query, pkExpr, opts, root } = ctx;
  if (!opts.partitions || !isDeferred(ctx) || !order.keyset || query.filter || query.search || query.limit === -1) return null;
  const parts = opts.partitions(root, ROOT, s.params);
  if (!parts || parts.length === 0 || parts.length > MAX_PARTITIONS) return null;
  const cursor = whereSql(s, false, order.after === undefined ? undefined : { after: order.after, desc: order.keysetDesc }, false);
  const conds = cursor ? [cursor.slice(' WHERE '.length)] : [];
  const seek = seekSql(s, order);
  const reverse = seek ? null : reversedPage(ctx, order);
  const desc = reverse ? !order.keysetDesc : order.keysetDesc;
  const dir = desc ? 'DESC' : 'ASC';
  let limit: string;
  let offset = '';
  let branchLimit: string;
  if (seek) {
    conds.push(`${pkExpr} ${desc ? '<=' : '>='} (SELECT "lo" FROM "seek")`);
    limit = rowCountSql(s, query.limit);
    offset = ' OFFSET (SELECT "skip" FROM "seek")';
    branchLimit = `(${limit} + (SELECT "skip" FROM "seek"))`;
  } else {
    const page = reverse ?? { limit: query.limit, offset: query.offset };
    limit = rowCountSql(s, page.limit);
    if (page.offset > 0) offset = ` OFFSET ${rowCountSql(s, page.offset)}`;
    branchLimit = page.offset > 0 ? rowCountSql(s, page.limit + page.offset) : limit;
  }
  const branches = parts.map(
    (p) =>
      `(SELECT ${pkExpr} AS "_d" FROM ${fromRoot(ctx, s.params)} WHERE ${[`(${p})`, ...conds].join(' AND ')} ORDER BY ${pkExpr} ${dir} LIMIT ${branchLimit})`,
  );
  const keys = `SELECT "_d" FROM (${branches.join(' UNION ALL ')}) AS u ORDER BY "_d" ${dir} LIMIT ${limit}${offset}`;
  const orderBy = orderBySql(s, order);
  return {
    text: `${seek ? `WITH "seek" AS (${seek}) ` : ''}SELECT ${cols.join(', ')} FROM ${fromRoot(ctx, s.params)} JOIN (${keys}) AS d ON d."_d" = ${pkExpr}${s.joinText()}${orderBy}`,
    values: s.params.values,
  };
}

/** One row by primary key with the row filter; 403 for an id that cannot be a key. */
export function oneSql(ctx: PlanContext, tree: TreeNode, id: unknown): Sql {
  const { root, rootPk, pkExpr, opts } = ctx;
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
  return { text: `SELECT ${cols.join(', ')} FROM ${fromRoot(ctx, s.params)}${s.joinText()} WHERE ${cond} LIMIT 1`, values: s.params.values };
}
