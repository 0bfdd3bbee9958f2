import { parseQuery } from './parse-query';
import { errorCode } from '../test/error-code';

const code = errorCode;

describe('parseQuery', () => {
  it('applies the defaults', () => {
    expect(parseQuery({})).toEqual({
      fields: ['*'],
      limit: 100,
      offset: 0,
      sort: null,
      random: false,
      filter: null,
      search: null,
      meta: [],
      aggregate: null,
      groupBy: [],
      after: null,
    });
    expect(parseQuery({}, { limitDefault: 7 }).limit).toBe(7);
  });
  it('reads limit, offset and page', () => {
    expect(parseQuery({ limit: '-1' }).limit).toBe(-1);
    expect(parseQuery({ limit: '-1' }, { limitMax: 50 }).limit).toBe(50);
    expect(parseQuery({ limit: '500' }, { limitMax: 50 }).limit).toBe(50);
    expect(parseQuery({ limit: '0' }).limit).toBe(0);
    expect(parseQuery({ limit: '10', page: '3', offset: '1' }).offset).toBe(20);
    expect(parseQuery({ limit: '10', page: '0', offset: '4' }).offset).toBe(4);
    for (const bad of [{ limit: 'abc' }, { limit: '-2' }, { limit: '1.5' }, { offset: '-1' }, { page: 'x' }, { limit: ['1', '2'] }])
      expect(code(() => parseQuery(bad))).toBe('INVALID_QUERY');
  });
  it('reads fields, sort and meta in comma, array and JSON forms', () => {
    expect(parseQuery({ fields: 'id, activity.*' }).fields).toEqual(['id', 'activity.*']);
    expect(parseQuery({ fields: ['id', 'data,delta'] }).fields).toEqual(['id', 'data', 'delta']);
    expect(parseQuery({ fields: '["id","item"]' }).fields).toEqual(['id', 'item']);
    expect(parseQuery({ sort: '-activity.timestamp,id' }).sort).toEqual([
      { path: 'activity.timestamp', desc: true },
      { path: 'id', desc: false },
    ]);
    expect(parseQuery({ sort: '?' }).random).toBe(true);
    expect(code(() => parseQuery({ sort: '?,id' }))).toBe('INVALID_QUERY');
    expect(parseQuery({ meta: '*' }).meta).toEqual(['total_count', 'filter_count']);
    expect(parseQuery({ meta: 'filter_count,total_count' }).meta).toEqual(['filter_count', 'total_count']);
    expect(parseQuery({ meta: '' }).meta).toEqual([]);
  });
  it('reads filter, aggregate and groupBy', () => {
    expect(parseQuery({ filter: '{"id":{"_eq":1}}' }).filter).toEqual({ id: { _eq: 1 } });
    expect(parseQuery({ filter: { id: { _eq: '1' } } }).filter).toEqual({ id: { _eq: '1' } });
    expect(code(() => parseQuery({ filter: '{bad' }))).toBe('INVALID_QUERY');
    expect(code(() => parseQuery({ filter: '[1]' }))).toBe('INVALID_QUERY');
    expect(parseQuery({ aggregate: { count: '*' }, groupBy: 'collection' })).toMatchObject({
      aggregate: { count: ['*'] },
      groupBy: ['collection'],
    });
    expect(parseQuery({ aggregate: '{"sum":"id"}' }).aggregate).toEqual({ sum: ['id'] });
    expect(code(() => parseQuery({ aggregate: { median: 'id' } }))).toBe('INVALID_QUERY');
  });
  it('ignores prototype keys', () => {
    const q = JSON.parse('{"__proto__":{"limit":"5"}}');
    expect(parseQuery(q).limit).toBe(100);
  });
});

it('meta=<unknown> → 400 INVALID_QUERY naming the accepted values', () => {
  for (const meta of ['nope', 'filter_count,nope', ['total_count', 'count']]) {
    expect(() => parseQuery({ meta })).toThrow(expect.objectContaining({ code: 'INVALID_QUERY', status: 400 }));
  }
  expect(() => parseQuery({ meta: 'nope' })).toThrow('Unknown meta "nope": use total_count, filter_count or *.');
});
