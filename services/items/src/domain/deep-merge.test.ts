import { deepMerge } from './deep-merge';

describe('deepMerge', () => {
  it('keeps the keys of both saves at every depth', () => {
    expect(deepMerge({ a: 1, n: { x: 1, m: { p: 1 } } }, { n: { y: 2, m: { q: 2 } } })).toEqual({ a: 1, n: { x: 1, y: 2, m: { p: 1, q: 2 } } });
  });
  it('replaces arrays, scalars and nulls, and an object over a scalar', () => {
    expect(deepMerge({ l: [1, 2], s: 'a', z: { k: 1 }, o: 3 }, { l: [3], s: null, z: null, o: { k: 1 } })).toEqual({ l: [3], s: null, z: null, o: { k: 1 } });
  });
  it('changes neither argument', () => {
    const base = { n: { x: 1 } };
    const patch = { n: { y: 2 } };
    deepMerge(base, patch);
    expect(base).toEqual({ n: { x: 1 } });
    expect(patch).toEqual({ n: { y: 2 } });
  });
});
