import fc from 'fast-check';
import { rawJson, RawJson, stringifyJson } from './raw-json';

describe('stringifyJson', () => {
  it('is JSON.stringify for values without RawJson', () => {
    fc.assert(fc.property(fc.jsonValue(), (v) => expect(stringifyJson(v)).toBe(JSON.stringify(v))));
    const odd = { a: undefined, b: [undefined, () => 1], d: new Date(0), n: null, ['__proto__']: 1 };
    expect(stringifyJson(odd)).toBe(JSON.stringify(odd));
    expect(stringifyJson(undefined)).toBe('null');
  });

  it('splices RawJson text in as is, at any depth', () => {
    const body = {
      data: [
        { id: 1, data: rawJson('{"n": 1.50}'), delta: null },
        { id: 2, data: rawJson('[1, "x"]') },
      ],
      meta: { c: 2 },
    };
    expect(stringifyJson(body)).toBe('{"data":[{"id":1,"data":{"n": 1.50},"delta":null},{"id":2,"data":[1, "x"]}],"meta":{"c":2}}');
    // elsewhere (logs, GraphQL) it still means the same JSON
    expect(JSON.parse(JSON.stringify(body))).toEqual(JSON.parse(stringifyJson(body)));
    expect(new RawJson('{"a":1}').toJSON()).toEqual({ a: 1 });
    // strings that look like the placeholders stay strings; nested stringify calls are unaffected
    const lookalike = { s: '\u00000:0', t: '"\u0000', r: rawJson('1') };
    expect(JSON.parse(stringifyJson(lookalike))).toEqual({ s: '\u00000:0', t: '"\u0000', r: 1 });
    expect(stringifyJson({ a: rawJson('[]'), b: { toJSON: () => JSON.stringify({ c: rawJson('2') }) } })).toBe('{"a":[],"b":"{\\"c\\":2}"}');
  });
});
