import { errors } from '@vellum/errors';
import { fromRoot, type PlanContext } from './plan-context';
import { whereSql } from './plan-filters';
import { countSql } from './plan-meta';
import type { Plan } from './plan-options';
import { pageSql } from './plan-paging';
import type { Sql } from './params';
import type { AggregateFn } from './query';
import { isDateType, isNumericType, isStringType, quoteIdent as q, type FieldType } from './schema';
import { convert } from './shape-rows';
import { Statement } from './statement';

interface Aggregate {
  fn: AggregateFn;
  field: string;
}

/** The aggregates of the query, one per (function, field), in the query's order. */
export function aggregatesOf(ctx: PlanContext): Aggregate[] {
  const { query } = ctx;
  const aggs: Aggregate[] = [];
  for (const [fn, fields] of Object.entries(query.aggregate ?? {}) as [AggregateFn, string[]][]) for (const field of fields) aggs.push({ fn, field });
  if (query.groupBy.length > 20 || aggs.length > 100) throw errors.invalidQuery('Too many aggregates.');
  return aggs;
}

/** One aggregate's column (400 when the function does not fit the field's type). */
function aggregateColumn(s: Statement, { fn, field }: Aggregate, i: number): string {
  if (field === '*') {
    if (fn !== 'count') throw errors.invalidQuery(`"${fn}" needs a field.`);
    return `count(*)::int8 AS ${q(`a${i}`)}`;
  }
  const r = s.resolve(field);
  const t = r.def.type;
  if ((fn === 'sum' || fn === 'avg') && !isNumericType(t)) throw errors.invalidQuery(`"${fn}" needs a numeric field.`);
  if ((fn === 'min' || fn === 'max') && !(isNumericType(t) || isDateType(t) || isStringType(t)))
    throw errors.invalidQuery(`"${fn}" is not valid for "${field}".`);
  if (fn === 'countDistinct' && t === 'json') throw errors.invalidQuery(`"${fn}" is not valid for "${field}".`);
  const sql = fn === 'count' ? `count(${r.expr})::int8` : fn === 'countDistinct' ? `count(DISTINCT ${r.expr})::int8` : `${fn}(${r.expr})`;
  return `${sql} AS ${q(`a${i}`)}`;
}

/** The grouped statement: groups (projected values) as g0…, aggregates as a0…, ordered by groups unless sorted. */
export function aggregateSql(ctx: PlanContext, aggs: Aggregate[]): Sql {
  const { query } = ctx;
  const groups = query.groupBy;
  const s = new Statement(ctx);
  const cols: string[] = [];
  const groupExprs = groups.map((g, i) => {
    const r = s.value(g);
    cols.push(`${r.expr} AS ${q(`g${i}`)}`);
    return r.expr;
  });
  aggs.forEach((a, i) => cols.push(aggregateColumn(s, a, i)));
  if (cols.length === 0) throw errors.invalidQuery('Nothing to aggregate.');
  const where = whereSql(s, true);
  let order = '';
  if (query.random) order = ' ORDER BY random()';
  else if (query.sort) {
    order = ` ORDER BY ${query.sort
      .map((k) => {
        const i = groups.indexOf(k.path);
        if (i < 0) throw errors.invalidQuery('With "groupBy", sort only by grouped fields.');
        return `${groupExprs[i]} ${k.desc ? 'DESC' : 'ASC'}`;
      })
      .join(', ')}`;
  } else if (groupExprs.length) order = ` ORDER BY ${groupExprs.map((_, i) => i + 1).join(', ')}`;
  const group = groupExprs.length ? ` GROUP BY ${groupExprs.map((_, i) => i + 1).join(', ')}` : '';
  const page = pageSql(s);
  return { text: `SELECT ${cols.join(', ')} FROM ${fromRoot(ctx, s.params)}${s.joinText()}${where}${group}${order}${page}`, values: s.params.values };
}

/** Database rows of the grouped statement → `{ <group>: value, <fn>: { <field>: value } }` (`count: n` for count(*) alone). */
function shapeAggregates(ctx: PlanContext, aggs: Aggregate[], groupTypes: FieldType[], aggTypes: FieldType[], rows: Record<string, unknown>[]) {
  const { query } = ctx;
  return rows.map((row) => {
    const out: Record<string, unknown> = {};
    query.groupBy.forEach((g, i) => (out[g] = convert(groupTypes[i]!, row[`g${i}`])));
    aggs.forEach(({ fn, field }, i) => {
      const v = row[`a${i}`];
      const value =
        fn === 'count' || fn === 'countDistinct' || fn === 'sum' || fn === 'avg'
          ? v === null || v === undefined
            ? null
            : Number(v)
          : convert(aggTypes[i]!, v);
      const onlyStar = field === '*' && (query.aggregate?.[fn]?.length ?? 0) === 1;
      if (onlyStar) out[fn] = value;
      else ((out[fn] ??= {}) as Record<string, unknown>)[field] = value;
    });
    return out;
  });
}

/** The plan of a query with `aggregate` or `groupBy`: validated now (the statement is built once here). */
export function planAggregate(ctx: PlanContext): Plan {
  const aggs = aggregatesOf(ctx);
  aggregateSql(ctx, aggs); // validates now
  const groupTypes = ctx.query.groupBy.map((g) => new Statement(ctx).resolve(g).def.type);
  const aggTypes = aggs.map((a): FieldType => (a.field === '*' ? 'integer' : new Statement(ctx).resolve(a.field).def.type));
  return {
    kind: 'aggregate',
    query: ctx.query,
    keyset: false,
    list: () => aggregateSql(ctx, aggs),
    one: () => {
      throw errors.forbidden();
    },
    count: (which) => countSql(ctx, which),
    nextCursor: () => null,
    shape: (rows) => shapeAggregates(ctx, aggs, groupTypes, aggTypes, rows),
  };
}
