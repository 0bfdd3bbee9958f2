import { coerceValue } from './coerce-value';
import { field, thrown } from '../../test/domain-fixtures';

const coerce = (type: Parameters<typeof field>[1], value: unknown, schema = {}) => coerceValue(field('f', type, schema), value);
const failure = (type: Parameters<typeof field>[1], value: unknown, schema = {}) => thrown(() => coerce(type, value, schema));

describe('coerceValue', () => {
  it('null passes in a nullable field and is refused (nnull) in a non-nullable one', () => {
    expect(coerce('integer', null)).toBeNull();
    expect(failure('integer', null, { is_nullable: false })).toEqual({
      status: 400,
      code: 'FAILED_VALIDATION',
      extensions: { field: 'f', type: 'nnull' },
    });
  });

  it('integer: numbers and integer strings within int4, nothing else', () => {
    expect(coerce('integer', 42)).toBe(42);
    expect(coerce('integer', '-17')).toBe(-17);
    expect(coerce('integer', 2147483647)).toBe(2147483647);
    expect(coerce('integer', -2147483648)).toBe(-2147483648);
    for (const bad of [2147483648, -2147483649, 1.5, '1.5', ' 1', '1e3', '', true, [], {}])
      expect([bad, failure('integer', bad).extensions]).toEqual([bad, { field: 'f', type: 'integer' }]);
  });

  it('bigInteger: safe integers and integer strings within int8, sent on as strings', () => {
    expect(coerce('bigInteger', 5)).toBe('5');
    expect(coerce('bigInteger', '9223372036854775807')).toBe('9223372036854775807');
    expect(coerce('bigInteger', '-9223372036854775808')).toBe('-9223372036854775808');
    for (const bad of ['9223372036854775808', '-9223372036854775809', 2 ** 53, 1.5, '12a', 'x'])
      expect([bad, failure('bigInteger', bad).extensions.type]).toEqual([bad, 'bigInteger']);
  });

  it('float: finite numbers and numeric strings (exponents allowed)', () => {
    expect(coerce('float', 1.25)).toBe(1.25);
    expect(coerce('float', ' 2.5e3 ')).toBe(2500);
    expect(coerce('float', '.5')).toBe(0.5);
    for (const bad of [Infinity, NaN, 'abc', '1,5', false]) expect([bad, failure('float', bad).extensions.type]).toEqual([bad, 'float']);
  });

  it('decimal: kept as a string (no float rounding), exponents refused', () => {
    expect(coerce('decimal', '12345678901234567890.123')).toBe('12345678901234567890.123');
    expect(coerce('decimal', ' 3.5 ')).toBe('3.5');
    expect(coerce('decimal', 0.1)).toBe('0.1');
    for (const bad of ['1e5', 'x', Infinity, true]) expect([bad, failure('decimal', bad).extensions.type]).toEqual([bad, 'decimal']);
  });

  it('string: max_length counts characters (255 by default, none when null); NUL refused; text has no limit', () => {
    expect(coerce('string', 'héllo', { max_length: 5 })).toBe('héllo');
    expect(coerce('string', '😀😀', { max_length: 2 })).toBe('😀😀');
    expect(failure('string', 'abcdef', { max_length: 5 }).extensions).toEqual({ field: 'f', type: 'max_length' });
    expect(failure('string', 'x'.repeat(256)).extensions.type).toBe('max_length');
    expect(coerce('string', 'x'.repeat(256), { max_length: null })).toHaveLength(256);
    expect(coerce('text', 'x'.repeat(10_000))).toHaveLength(10_000);
    expect(failure('text', 'a\u0000b').extensions.type).toBe('text');
    expect(failure('string', 5).extensions.type).toBe('string');
  });

  it('json: NUL refused in any string or key (jsonb cannot hold it); the text "\\u0000" is kept', () => {
    for (const bad of [{ k: 'a\u0000b' }, { 'k\u0000': 1 }, ['x', ['\u0000']], '\\\u0000']) {
      expect(failure('json', bad).extensions).toEqual({ field: 'f', type: 'json' });
    }
    for (const good of [{ k: '\\u0000' }, { k: '\\\\u0000' }, 'u0000', { k: 'a' }]) expect(JSON.parse(coerce('json', good) as string)).toEqual(good);
  });

  it('boolean: only true and false', () => {
    expect(coerce('boolean', false)).toBe(false);
    for (const bad of ['true', 1, 0]) expect(failure('boolean', bad).extensions.type).toBe('boolean');
  });

  it('uuid: canonical form only, sent lower case', () => {
    expect(coerce('uuid', '0E8A5F4C-1B2D-4C3E-9F00-ABCDEF123456')).toBe('0e8a5f4c-1b2d-4c3e-9f00-abcdef123456');
    for (const bad of ['0e8a5f4c1b2d4c3e9f00abcdef123456', '{0e8a5f4c-1b2d-4c3e-9f00-abcdef123456}', 7])
      expect(failure('uuid', bad).extensions.type).toBe('uuid');
  });

  it('json: any value, serialised (an array must not become a PostgreSQL array literal)', () => {
    expect(coerce('json', [1, 'a'])).toBe('[1,"a"]');
    expect(coerce('json', { a: { b: true } })).toBe('{"a":{"b":true}}');
    expect(coerce('json', 'x')).toBe('"x"');
  });

  it('date: YYYY-MM-DD of a real calendar day', () => {
    expect(coerce('date', '2024-02-29')).toBe('2024-02-29');
    for (const bad of ['2023-02-29', '2024-13-01', '2024-1-01', '2024-01-01T00:00:00Z', 20240101]) expect(failure('date', bad).extensions.type).toBe('date');
  });

  it('dateTime: stored as UTC wall time; an offset is converted, none means UTC', () => {
    expect(coerce('dateTime', '2024-05-06T07:08:09')).toBe('2024-05-06T07:08:09.000');
    expect(coerce('dateTime', '2024-05-06 07:08')).toBe('2024-05-06T07:08:00.000');
    expect(coerce('dateTime', '2024-05-06T07:08:09.123456+02:00')).toBe('2024-05-06T05:08:09.123');
    expect(coerce('dateTime', '2024-05-06T23:30:00-0130')).toBe('2024-05-07T01:00:00.000');
    expect(coerce('dateTime', '2024-05-06T07:08:09+05')).toBe('2024-05-06T02:08:09.000');
    for (const bad of ['2024-02-30T00:00:00', '2024-05-06', '2024-05-06T25:00:00', 'now']) expect(failure('dateTime', bad).extensions.type).toBe('dateTime');
  });

  it('timestamp: an instant in ISO form with Z', () => {
    expect(coerce('timestamp', '2024-05-06T07:08:09.5+01:00')).toBe('2024-05-06T06:08:09.500Z');
    expect(coerce('timestamp', '2024-05-06T07:08:09z')).toBe('2024-05-06T07:08:09.000Z');
    expect(failure('timestamp', 1714979289000).extensions.type).toBe('timestamp');
  });

  it('says which field and why in the message', () => {
    expect(() => coerceValue(field('title', 'string', { max_length: 3 }), 'long')).toThrow('Value for field "title" is longer than 3 characters.');
    expect(() => coerceValue(field('n', 'integer'), 'x')).toThrow('Value for field "n" must be of type integer.');
  });
});
