import { planContext } from './plan-context';
import { parseQuery } from './parse-query';
import { nextCursor, orderBySql, planSort } from './plan-sort';
import { Statement } from './statement';
import { schema } from '../test/fixtures';
import { errorCode } from '../test/error-code';

const code = errorCode;
const ctx = (raw: Record<string, unknown>, opts = {}) => planContext(schema, 'revisions', parseQuery(raw), opts);
const cursor = (k: unknown, d: number) => Buffer.from(JSON.stringify({ k, d })).toString('base64url');

describe('planSort', () => {
  it('orders by the primary key by default (keyset), by keys with the key as tie-breaker, or at random', () => {
    expect(planSort(ctx({}))).toEqual({ sortKeys: [{ path: 'id', desc: false }], keyset: true, keysetDesc: false, after: undefined });
    expect(planSort(ctx({ sort: '-id' }))).toMatchObject({ keyset: true, keysetDesc: true });
    expect(planSort(ctx({ sort: 'item,id' })).keyset).toBe(false);
    expect(planSort(ctx({ sort: '?' }))).toMatchObject({ sortKeys: [], keyset: false });
  });
  it('decodes an `after` cursor of the same direction, typed as the key', () => {
    expect(planSort(ctx({ sort: '-id', after: cursor(' 9', 1) })).after).toBe('9');
    expect(code(() => planSort(ctx({ after: cursor('9', 1) })))).toBe('INVALID_QUERY');
    expect(code(() => planSort(ctx({ sort: 'item', after: cursor('9', 0) })))).toBe('INVALID_QUERY');
    expect(code(() => planSort(ctx({ after: 'x' })))).toBe('INVALID_QUERY');
    expect(code(() => planSort(ctx({ after: cursor('abc', 0) })))).toBe('INVALID_QUERY');
  });
  it('writes ORDER BY with projected values and joins, reversed on demand', () => {
    const c = ctx(
      { sort: '-activity.timestamp,data' },
      { project: ({ def, expr }: { def: { type: string }; expr: string }) => (def.type === 'json' ? `pick(${expr})` : expr) },
    );
    const s = new Statement(c);
    expect(orderBySql(s, planSort(c))).toBe(' ORDER BY j1."timestamp" DESC, pick(r."data") ASC, r."id" ASC');
    expect(orderBySql(s, planSort(c), true)).toBe(' ORDER BY j1."timestamp" ASC, pick(r."data") DESC, r."id" DESC');
    expect(s.joinText()).toBe(' LEFT JOIN "activity" AS j1 ON j1."id" = r."activity"');
    const random = ctx({ sort: '?' });
    expect(orderBySql(new Statement(random), planSort(random))).toBe(' ORDER BY random()');
    const bad = ctx({ sort: 'nope' });
    expect(code(() => orderBySql(new Statement(bad), planSort(bad)))).toBe('FORBIDDEN');
  });
  it('gives the next cursor only after a full page in key order', () => {
    const order = planSort(ctx({ sort: '-id' }));
    const next = nextCursor(order, 2, [{ _k: '10' }, { _k: 9 }]);
    expect(next).toBe(cursor('9', 1));
    expect(planSort(ctx({ sort: '-id', after: next })).after).toBe('9');
    expect(nextCursor(order, 3, [{ _k: '10' }, { _k: '9' }])).toBeNull();
    expect(nextCursor(order, 0, [])).toBeNull();
    expect(nextCursor(order, 1, [{ _k: null }])).toBeNull();
    expect(nextCursor(planSort(ctx({ sort: 'item' })), 1, [{ _k: '1' }])).toBeNull();
  });
});
