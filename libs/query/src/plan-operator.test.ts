import { planContext } from './plan-context';
import { parseQuery } from './parse-query';
import { operatorSql } from './plan-operator';
import { defineSchema, type FieldType } from './schema';
import { Statement } from './statement';
import { errorCode } from '../test/error-code';

const code = errorCode;
const types: FieldType[] = ['integer', 'float', 'decimal', 'string', 'boolean', 'uuid', 'json', 'date', 'timestamp'];
const schema = defineSchema({ t: { name: 't', table: 't', primaryKey: 'integer', fields: Object.fromEntries(types.map((t) => [t, { type: t }])) } });
const now = new Date('2026-03-10T12:00:00.000Z');
/** [sql, params] of one operator on the field named after its type. */
const op = (type: FieldType, o: string, v: unknown): [string, unknown[]] => {
  const s = new Statement(planContext(schema, 't', parseQuery({}), { now, user: 'u-1', role: null }));
  return [operatorSql(s, type, schema.t!.fields[type]!, 'x', o, v), s.params.values];
};

describe('operatorSql', () => {
  it('compiles comparisons with typed, cast parameters', () => {
    expect(op('integer', '_eq', '7')).toEqual(['x = $1::int8', ['7']]);
    expect(op('integer', '_neq', null)).toEqual(['x IS NOT NULL', []]);
    expect(op('string', '_eq', 'null')).toEqual(['x IS NULL', []]);
    expect(op('float', '_gte', 1.5)).toEqual(['x >= $1::float8', [1.5]]);
    expect(op('decimal', '_lt', ' 2.50 ')).toEqual(['x < $1::numeric', ['2.50']]);
    expect(op('timestamp', '_gt', '$NOW(-1 day)')).toEqual(['x > $1::timestamptz', ['2026-03-09T12:00:00.000Z']]);
    expect(op('date', '_lte', '$NOW')).toEqual(['x <= $1::date', ['2026-03-10']]);
    expect(op('string', '_eq', '$CURRENT_USER')).toEqual(['x = $1::text', ['u-1']]);
    expect(op('boolean', '_eq', '1')).toEqual(['x = $1::bool', [true]]);
    expect(op('uuid', '_eq', 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11')[1]).toEqual(['a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11']);
  });
  it('compiles lists, ranges, null and empty tests, and LIKE patterns', () => {
    expect(op('integer', '_in', '1,2')).toEqual(['x = ANY($1::int8[])', [['1', '2']]]);
    expect(op('integer', '_nin', 3)).toEqual(['NOT (x = ANY($1::int8[]))', [['3']]]);
    expect(op('date', '_nbetween', ['2026-01-01', '$NOW'])).toEqual(['x NOT BETWEEN $1::date AND $2::date', ['2026-01-01', '2026-03-10']]);
    expect(op('json', '_null', 'true')).toEqual(['x IS NULL', []]);
    expect(op('json', '_nnull', 0)).toEqual(['x IS NULL', []]);
    expect(op('string', '_empty', false)).toEqual([`(x IS NOT NULL AND x <> '')`, []]);
    expect(op('string', '_nempty', true)).toEqual([`(x IS NOT NULL AND x <> '')`, []]);
    expect(op('string', '_nistarts_with', 'a_b')).toEqual(['x NOT ILIKE $1::text', ['a\\_b%']]);
    expect(op('string', '_ends_with', 5)).toEqual(['x LIKE $1::text', ['%5']]);
  });
  it('answers 400 for an operator the type lacks or a value it cannot take', () => {
    for (const [type, o, v] of [
      ['json', '_eq', 'x'],
      ['integer', '_contains', '1'],
      ['integer', '_eq', 'abc'],
      ['string', '_eq', ''],
      ['string', '_eq', { a: 1 }],
      ['integer', '_lt', null],
      ['integer', '_in', []],
      ['integer', '_in', [null]],
      ['integer', '_in', { a: 1 }],
      ['integer', '_between', [1]],
      ['string', '_null', 'maybe'],
      ['string', '_contains', ''],
      ['boolean', '_eq', 'yes'],
      ['integer', '_bogus', 1],
      ['date', '_eq', '$NOW(+1 fortnight)'],
    ] as [FieldType, string, unknown][])
      expect([type, o, code(() => op(type, o, v))]).toEqual([type, o, 'INVALID_QUERY']);
  });
});
