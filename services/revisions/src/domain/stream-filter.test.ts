import type { FeedRow } from '../data/feed.repository';
import { compileFilter } from './stream-filter';
import { compileShape } from './stream-shape';

const row = (p: Partial<FeedRow> = {}): FeedRow => ({
  id: 7,
  activity: 70,
  collection: 'articles',
  item: '3',
  data: null,
  delta: null,
  parent: null,
  version: null,
  action: 'update',
  user: 'u1',
  timestamp: new Date('2026-03-01T00:00:00.000Z'),
  ip: null,
  user_agent: null,
  activity_collection: 'articles',
  activity_item: '3',
  origin: null,
  comment: null,
  ...p,
});
const ctx = { now: new Date('2026-03-02T00:00:00.000Z'), user: 'u1', role: 'r1' };
const test = (filter: Record<string, unknown>, r = row()) => compileFilter(filter, ctx)(r);

describe('compileFilter: a /revisions filter evaluated in memory, as SQL would', () => {
  it('compares by the field type: ids as numbers, timestamps as instants, text as text', () => {
    expect(test({ id: { _eq: '7' } })).toBe(true);
    expect(test({ id: { _gt: 6, _lte: 7 } })).toBe(true);
    expect(test({ id: { _between: [8, 9] } })).toBe(false);
    expect(test({ activity: { timestamp: { _gte: '$NOW(-2 days)' } } })).toBe(true);
    expect(test({ activity: { timestamp: { _lt: '2026-02-01' } } })).toBe(false);
    expect(test({ collection: { _in: 'notes,articles' } })).toBe(true);
    expect(test({ item: { _istarts_with: '3' }, activity: { action: { _nin: ['delete'] } } })).toBe(true);
    expect(test({ activity: { user: { _eq: '$CURRENT_USER' } } })).toBe(true);
  });

  it('treats a comparison with NULL as unknown: neither it nor its negation passes', () => {
    const orphan = row({ parent: null });
    expect(test({ parent: { _eq: 5 } }, orphan)).toBe(false);
    expect(test({ parent: { _neq: 5 } }, orphan)).toBe(false);
    expect(test({ parent: { _nin: [5] } }, orphan)).toBe(false);
    expect(test({ parent: { _null: true } }, orphan)).toBe(true);
    expect(test({ _or: [{ parent: { _neq: 5 } }, { item: { _eq: '3' } }] }, orphan)).toBe(true);
    expect(test({ _and: [{ parent: { _neq: 5 } }, { item: { _eq: '3' } }] }, orphan)).toBe(false);
  });

  it('refuses what it cannot evaluate without reading the database (400 INVALID_QUERY)', () => {
    for (const f of [
      { data: { _null: true } },
      { parent: { collection: { _eq: 'x' } } },
      { collection: { _gt: 'a' } },
      { id: { _eq: 'x' } },
      { id: { _foo: 1 } },
    ]) {
      expect(() => compileFilter(f, ctx)).toThrow(expect.objectContaining({ code: 'INVALID_QUERY' }));
    }
  });
});

describe('compileShape: the fields of /revisions in memory', () => {
  const rev = { row: row({ data: '{"a":1,"b":2}' }), data: { a: 1, b: 2 }, delta: { b: 2 }, shaped: new Map() };
  const restricted = { all: false, fields: { articles: ['a'] } } as never;
  it('shows *, the revision fields and the activity, with data and delta reduced to the readable fields', () => {
    expect(compileShape(['id', 'data', 'activity.action']).apply(rev, restricted)).toEqual({ id: 7, data: { a: 1 }, activity: { action: 'update' } });
    expect(compileShape(['*']).apply(rev, { all: true })).toEqual({
      id: 7,
      activity: 70,
      collection: 'articles',
      item: '3',
      data: { a: 1, b: 2 },
      delta: { b: 2 },
      parent: null,
      version: null,
    });
    expect(compileShape(['delta', 'activity.timestamp']).apply(rev, restricted)).toEqual({ delta: {}, activity: { timestamp: '2026-03-01T00:00:00.000Z' } });
  });
  it('refuses other relations (400 INVALID_QUERY)', () => {
    for (const f of ['parent.id', '*.*', 'activity.user.email', 'nope'])
      expect(() => compileShape([f])).toThrow(expect.objectContaining({ code: 'INVALID_QUERY' }));
  });
});
