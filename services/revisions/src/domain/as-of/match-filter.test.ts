import { compareValues, matchFilter } from './match-filter';
import { pastPointOf } from './as-of-reader';

const ctx = { now: new Date('2026-12-05T12:00:00Z'), user: 'u1', role: null };
const allow = () => undefined;
const item = { id: 3, title: 'Hello World', n: 7, body: null, at: '2026-12-01T00:00:00.000Z' };
const m = (filter: unknown) => matchFilter(filter, item, ctx, allow);

describe('matchFilter on a past state (the query language in memory)', () => {
  it('compares numbers as numbers, text as text, with SQL null rules', () => {
    expect([m({ n: { _gt: 5 } }), m({ n: { _gt: '10' } }), m({ n: { _between: [7, 9] } }), m({ n: { _in: '1,7' } })]).toEqual([true, false, true, true]);
    expect([m({ title: { _icontains: 'world' } }), m({ title: { _starts_with: 'hello' } }), m({ title: { _nends_with: 'd' } })]).toEqual([true, false, false]);
    expect([m({ body: { _null: true } }), m({ body: { _eq: null } }), m({ body: { _neq: 'x' } }), m({ missing: { _nnull: true } })]).toEqual([
      true,
      false,
      false,
      false,
    ]);
    expect(m({ at: { _lt: '$NOW' } })).toBe(true);
  });

  it('combines with _and / _or and checks every field it names', () => {
    expect(m({ _or: [{ n: { _eq: 1 } }, { _and: [{ id: { _eq: 3 } }, { title: { _contains: 'World' } }] }] })).toBe(true);
    const named: string[] = [];
    matchFilter({ _and: [{ n: { _gt: 1 } }, { title: { _null: false } }] }, item, ctx, (f) => void named.push(f));
    expect(named).toEqual(['n', 'title']);
    expect(() => m({ n: { _nope: 1 } })).toThrow('Unknown operator');
    expect(() => m({ n: { _between: [1] } })).toThrow('exactly two');
  });

  it('orders as PostgreSQL does: nulls last ascending', () => {
    expect([3, null, 1, 2].sort(compareValues)).toEqual([1, 2, 3, null]);
  });
});

describe('pastPointOf', () => {
  it('reads at or at_revision, refuses both, a bad time or a bad id', () => {
    expect(pastPointOf({})).toBeUndefined();
    expect(pastPointOf({ at: '2026-12-01T10:00:00Z' })).toEqual({ at: new Date('2026-12-01T10:00:00Z') });
    expect(pastPointOf({ at_revision: '12' })).toEqual({ revision: '12' });
    expect(() => pastPointOf({ at: 'monday' })).toThrow('ISO 8601');
    expect(() => pastPointOf({ at_revision: 'x' })).toThrow('revision id');
    expect(() => pastPointOf({ at: '2026-12-01', at_revision: '1' })).toThrow('not both');
    expect(() => pastPointOf({ at: '2026-12-01', version: 'draft' })).toThrow('"version" cannot go with "at"');
    expect(pastPointOf({ at_revision: '3', version: 'main' })).toEqual({ revision: '3' });
  });
});
