// readableText: the permission reduction of a data/delta value on its JSON text gives the same JSON as on the object.
import { readableText } from '../src/domain/readable-text';
import { readable } from '../src/domain/visibility';

const viaObject = (text: string, allowed: '*' | Set<string> | undefined) => JSON.stringify(readable(JSON.parse(text), allowed));

describe('readableText', () => {
  const allowed = new Set(['id', 'title', 'n', 'é', 'a"b', 'nested', '']);
  const values: unknown[] = [
    { id: 1, title: 'T', body: 'x'.repeat(50), n: 2.5, status: 'draft' },
    { body: { id: 1, title: ['{', '}', '"'] }, nested: { deep: [1, [2, { id: 3 }]], s: 'a\\"}' }, id: null },
    { 'a"b': true, é: 'ü', '\u0000': 1, '': 'empty key', title: 'line\nbreak \u2028', n: -0.0001e-5 },
    { s: 'ends with a backslash \\', id: 1, t: '\\"', title: '\\\\' },
    { other: 1 },
    {},
    [1, { id: 2 }],
    'text',
    42,
    null,
    true,
  ];
  // the database's spacing (`jsonb::text`: ", " and ": "), JSON.stringify's, and more
  const spacings = [
    (v: unknown) => JSON.stringify(v),
    (v: unknown) => JSON.stringify(v, null, 2),
    (v: unknown) => JSON.stringify(v).replace(/,"/g, ', "').replace(/":/g, '": '),
  ];
  it.each(values.map((v, i) => [i, v]))('value %i: the same JSON as reducing the parsed object, with any spacing', (_i, v) => {
    for (const spaced of spacings) {
      const text = spaced(v);
      for (const a of [allowed, new Set<string>(), '*' as const, undefined]) expect(JSON.stringify(JSON.parse(readableText(text, a)))).toBe(viaObject(text, a));
    }
  });

  it('matches a key written with escapes by its value', () => {
    expect(JSON.parse(readableText('{"t\\u0069tle": 1, "x": 2}', allowed))).toEqual({ title: 1 });
  });

  it('copies the kept members as they are (no re-serialization)', () => {
    expect(readableText('{"id": 1.50, "body": {"a": 1}, "title": "x"}', allowed)).toBe('{"id":1.50,"title":"x"}');
  });

  it('refuses text that is not JSON', () => {
    expect(() => readableText('{"id" 1}', allowed)).toThrow(SyntaxError);
    expect(() => readableText('{"id": "open', allowed)).toThrow(SyntaxError);
  });
});
