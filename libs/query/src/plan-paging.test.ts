import { planContext } from './plan-context';
import type { PlanOptions } from './plan-options';
import { isDeferred, pageSql, reversedPage, seekSql } from './plan-paging';
import { planSort } from './plan-sort';
import { parseQuery } from './parse-query';
import { Statement } from './statement';
import { schema } from '../test/fixtures';

const ctx = (raw: Record<string, unknown>, opts: PlanOptions = {}) => planContext(schema, 'revisions', parseQuery(raw), opts);
const cursor = Buffer.from(JSON.stringify({ k: '9', d: 0 })).toString('base64url');

describe('plan-paging', () => {
  it('writes LIMIT and OFFSET in, only when they limit (a parameter for what is not a row count)', () => {
    const s = new Statement(ctx({ limit: '10', offset: '20' }));
    expect(pageSql(s)).toBe(' LIMIT 10 OFFSET 20');
    expect(pageSql(s, -1, 0)).toBe('');
    expect(pageSql(s, 0, 5)).toBe(' LIMIT 0 OFFSET 5');
    expect(s.params.values).toEqual([]);
    expect(pageSql(s, 2 ** 60, 1.5)).toBe(' LIMIT $1::int8 OFFSET $2::int8');
    expect(s.params.values).toEqual([2 ** 60, 1.5]);
  });
  it('defers deep pages (not random ones) from deferredJoinOffset on', () => {
    expect(isDeferred(ctx({ offset: '999' }))).toBe(false);
    expect(isDeferred(ctx({ offset: '1000' }))).toBe(true);
    expect(isDeferred(ctx({ offset: '1000', sort: '?' }))).toBe(false);
    expect(isDeferred(ctx({ offset: '10' }, { deferredJoinOffset: 10 }))).toBe(true);
  });
  it('asks seek only for a deep page in key order without a cursor, and passes the statement params', () => {
    const calls: unknown[] = [];
    const seek: PlanOptions['seek'] = ({ desc, offset, params }) => (calls.push({ desc, offset }), `lo ${params.add(offset)}`);
    const at = (raw: Record<string, unknown>) => {
      const c = ctx(raw, { seek });
      return seekSql(new Statement(c), planSort(c));
    };
    expect(at({ offset: '5000', sort: '-id' })).toBe('lo $1');
    expect(calls).toEqual([{ desc: true, offset: 5000 }]);
    expect(at({ offset: '5000', sort: 'item' })).toBeNull();
    expect(at({ offset: '10' })).toBeNull();
    expect(at({ offset: '5000', after: cursor })).toBeNull();
    expect(calls).toHaveLength(1);
    const none = ctx({ offset: '5000' });
    expect(seekSql(new Statement(none), planSort(none))).toBeNull();
  });
  it('reads a page past the middle of totalHint from the other end', () => {
    const rev = (raw: Record<string, unknown>, totalHint?: number) => {
      const c = ctx(raw, { totalHint });
      return reversedPage(c, planSort(c));
    };
    expect(rev({ offset: '900000', limit: '25' }, 1_000_000)).toEqual({ limit: 25, offset: 99975 });
    expect(rev({ offset: '999990', limit: '25' }, 1_000_000)).toEqual({ limit: 10, offset: 0 });
    expect(rev({ offset: '2000000', limit: '25' }, 1_000_000)).toEqual({ limit: 0, offset: 0 });
    expect(rev({ offset: '400000', limit: '25' }, 1_000_000)).toBeNull();
    expect(rev({ offset: '900000', limit: '25' })).toBeNull();
    expect(rev({ offset: '900000', limit: '-1' }, 1_000_000)).toBeNull();
    expect(rev({ offset: '900000', after: cursor }, 1_000_000)).toBeNull();
  });
});
