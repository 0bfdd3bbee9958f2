import { jsonTooDeep } from './json-depth';

const arrays = (depth: number): unknown => JSON.parse('['.repeat(depth) + ']'.repeat(depth));

describe('jsonTooDeep', () => {
  it('counts every object and array as a level; scalars are none', () => {
    expect(jsonTooDeep('x', 0)).toBe(false);
    expect(jsonTooDeep(null, 0)).toBe(false);
    expect(jsonTooDeep({}, 1)).toBe(false);
    expect(jsonTooDeep({}, 0)).toBe(true);
    expect(jsonTooDeep({ a: [{ b: 1 }] }, 3)).toBe(false);
    expect(jsonTooDeep({ a: [{ b: 1 }] }, 2)).toBe(true);
    expect(jsonTooDeep(arrays(100))).toBe(false);
    expect(jsonTooDeep(arrays(101))).toBe(true);
  });

  it('walks without recursion: 200,000 levels, and a wide shallow value, answer without throwing', () => {
    expect(jsonTooDeep(arrays(200_000))).toBe(true);
    expect(jsonTooDeep(Array.from({ length: 100_000 }, (_, i) => ({ i, tags: ['a', 'b'] })))).toBe(false);
  });
});
