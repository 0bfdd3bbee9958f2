import { aggregateSql, aggregatesOf, planAggregate } from './plan-aggregate';
import { planContext } from './plan-context';
import type { PlanOptions } from './plan-options';
import { parseQuery } from './parse-query';
import { schema } from '../test/fixtures';
import { errorCode } from '../test/error-code';

const code = errorCode;
const ctx = (raw: Record<string, unknown>, opts: PlanOptions = {}) => planContext(schema, 'revisions', parseQuery(raw), opts);
const sql = (raw: Record<string, unknown>, opts: PlanOptions = {}) => {
  const c = ctx(raw, opts);
  return aggregateSql(c, aggregatesOf(c));
};

describe('plan-aggregate', () => {
  it('lists the aggregates in the query order and bounds them', () => {
    expect(aggregatesOf(ctx({ aggregate: { count: '*,id', max: 'item' } }))).toEqual([
      { fn: 'count', field: '*' },
      { fn: 'count', field: 'id' },
      { fn: 'max', field: 'item' },
    ]);
    expect(code(() => aggregatesOf(ctx({ aggregate: { count: Array.from({ length: 101 }, () => 'id') } })))).toBe('INVALID_QUERY');
    expect(code(() => aggregatesOf(ctx({ groupBy: Array.from({ length: 21 }, () => 'id') })))).toBe('INVALID_QUERY');
  });
  it('groups by projected values, orders by groups (or the sort of grouped fields), pages', () => {
    const project = ({ def, expr }: { def: { type: string }; expr: string }) => (def.type === 'json' ? `pick(${expr})` : expr);
    expect(sql({ aggregate: { count: '*', avg: 'activity.id' }, groupBy: 'collection,data', filter: { id: { _gt: 1 } }, limit: '5' }, { project })).toEqual({
      text:
        'SELECT r."collection" AS "g0", pick(r."data") AS "g1", count(*)::int8 AS "a0", avg(j1."id") AS "a1" FROM "revisions" AS r ' +
        'LEFT JOIN "activity" AS j1 ON j1."id" = r."activity" WHERE r."id" > $1::int8 GROUP BY 1, 2 ORDER BY 1, 2 LIMIT 5',
      values: ['1'],
    });
    expect(sql({ aggregate: { count: '*' }, groupBy: 'collection,item', sort: '-item' }).text).toContain('GROUP BY 1, 2 ORDER BY r."item" DESC');
    expect(sql({ aggregate: { countDistinct: 'item' }, sort: '?', limit: '-1' }).text).toBe(
      'SELECT count(DISTINCT r."item")::int8 AS "a0" FROM "revisions" AS r ORDER BY random()',
    );
  });
  it('answers 400 for functions that do not fit the field, 403 for unknown fields', () => {
    expect(code(() => sql({ aggregate: { sum: 'item' } }))).toBe('INVALID_QUERY');
    expect(code(() => sql({ aggregate: { avg: '*' } }))).toBe('INVALID_QUERY');
    expect(code(() => sql({ aggregate: { min: 'data' } }))).toBe('INVALID_QUERY');
    expect(code(() => sql({ aggregate: { countDistinct: 'delta' } }))).toBe('INVALID_QUERY');
    expect(code(() => sql({ groupBy: 'collection', sort: 'item' }))).toBe('INVALID_QUERY');
    expect(code(() => sql({ aggregate: { count: 'nope' } }))).toBe('FORBIDDEN');
    expect(code(() => sql({ groupBy: 'activity.nope' }))).toBe('FORBIDDEN');
  });
  it('plans: validates at once, shapes groups and values by type, refuses one()', () => {
    expect(code(() => planAggregate(ctx({ aggregate: { sum: 'item' } })))).toBe('INVALID_QUERY');
    const p = planAggregate(ctx({ aggregate: { count: '*', max: 'activity.timestamp', sum: 'id' }, groupBy: 'id' }));
    expect(p).toMatchObject({ kind: 'aggregate', keyset: false });
    const at = new Date('2026-01-02T03:04:05.000Z');
    expect(p.shape([{ g0: '12', a0: '3', a1: at, a2: null }])).toEqual([
      { id: 12, count: 3, max: { 'activity.timestamp': '2026-01-02T03:04:05.000Z' }, sum: { id: null } },
    ]);
    expect(planAggregate(ctx({ aggregate: { count: '*,id' } })).shape([{ a0: '2', a1: '1' }])).toEqual([{ count: { '*': 2, id: 1 } }]);
    expect(p.nextCursor([{ _k: 1 }])).toBeNull();
    expect(code(() => p.one('1'))).toBe('FORBIDDEN');
    expect(p.count('total').text).toBe('SELECT count(*)::int8 AS n FROM "revisions" AS r');
  });
});
