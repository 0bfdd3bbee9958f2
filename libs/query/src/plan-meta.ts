import { fromRoot, type PlanContext } from './plan-context';
import { whereSql } from './plan-filters';
import type { Sql } from './params';
import { Statement } from './statement';

/**
 * `meta`: `SELECT count(*) AS n` — `total` (total_count) counts the rows the row filter lets through, `filter`
 * (filter_count) those that also match the filter and search.
 */
export function countSql(ctx: PlanContext, which: 'total' | 'filter'): Sql {
  const s = new Statement(ctx);
  const where = whereSql(s, which === 'filter');
  return { text: `SELECT count(*)::int8 AS n FROM ${fromRoot(ctx, s.params)}${s.joinText()}${where}`, values: s.params.values };
}
