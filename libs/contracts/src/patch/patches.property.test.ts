import { applyJsonPatch, jsonPatch, PatchTestFailed } from './json-patch';
import { jsonEqual, setMember, type Json, type JsonObject } from './json-value';
import { applyMergePatch, InexpressibleNull, mergePatch } from './merge-patch';

/** A small seeded generator (mulberry32), so a failure names its seed and replays. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const KEYS = ['id', 'title', 'body', 'n', 'tags', 'meta', 'a/b', 'x~y', '__proto__', ''];

function value(r: () => number, depth: number): Json {
  const k = r();
  if (k < 0.15) return null;
  if (k < 0.3) return r() < 0.5;
  if (k < 0.5) return Math.floor(r() * 20) - 5;
  if (k < 0.7) return ['', 'a', 'b', 'long text', 'ü'][Math.floor(r() * 5)]!;
  if (depth > 2) return 1.5;
  if (k < 0.85) return Array.from({ length: Math.floor(r() * 3) }, () => value(r, depth + 1));
  return object(r, depth + 1);
}

function object(r: () => number, depth: number): JsonObject {
  const o: JsonObject = {};
  for (const key of KEYS) if (r() < 0.4) setMember(o, key, value(r, depth));
  return o;
}

/** b: a with some members changed, removed or added (so pairs share most of their state, as revisions do). */
function edited(r: () => number, a: Json): Json {
  if (r() < 0.05) return r() < 0.5 ? null : value(r, 0);
  if (a === null || typeof a !== 'object' || Array.isArray(a)) return object(r, 0);
  const b: JsonObject = {};
  for (const key of Object.keys(a)) if (r() > 0.15) setMember(b, key, r() < 0.3 ? value(r, 1) : a[key]!);
  for (const key of KEYS) if (!Object.hasOwn(b, key) && r() < 0.1) setMember(b, key, value(r, 1));
  return b;
}

const PAIRS = 10_000;

describe('patches from revision a to revision b (property: applied to a they give b exactly)', () => {
  it(`JSON Patch (RFC 6902, with test guards) for ${PAIRS} random pairs`, () => {
    for (let seed = 1; seed <= PAIRS; seed++) {
      const r = rng(seed);
      const a: Json = r() < 0.05 ? null : object(r, 0);
      const b = edited(r, a);
      const patch = jsonPatch(a, b);
      const got = applyJsonPatch(a, patch);
      if (!jsonEqual(got, b)) throw new Error(`seed ${seed}: ${JSON.stringify(got)} ≠ ${JSON.stringify(b)}`);
      // the guards: a member the patch replaces or removes, changed since a, makes the whole patch fail
      const guarded = patch.find((op) => op.op === 'test' && op.path !== '');
      if (guarded && a !== null) {
        const changed: JsonObject = { ...(a as JsonObject) };
        setMember(changed, (guarded.path.slice(1) || '').replace(/~1/g, '/').replace(/~0/g, '~'), 'changed since');
        expect(() => applyJsonPatch(changed, patch)).toThrow(PatchTestFailed);
      }
    }
  });

  it(`merge patch (RFC 7396) for ${PAIRS} random pairs, refused exactly when b holds a null it cannot express`, () => {
    let refused = 0;
    for (let seed = 1; seed <= PAIRS; seed++) {
      const r = rng(seed);
      const a: Json = r() < 0.05 ? null : object(r, 0);
      const b = edited(r, a);
      let patch: Json;
      try {
        patch = mergePatch(a, b);
      } catch (e) {
        if (!(e instanceof InexpressibleNull)) throw e;
        refused++;
        continue;
      }
      const got = applyMergePatch(a, patch);
      if (!jsonEqual(got, b)) throw new Error(`seed ${seed}: ${JSON.stringify(got)} ≠ ${JSON.stringify(b)}`);
    }
    // nulls are common in the generated states: some pairs must have been refused, most not
    expect(refused).toBeGreaterThan(PAIRS / 20);
    expect(refused).toBeLessThan(PAIRS * 0.8);
  });

  it('a JSON Patch test guard fails on a value changed since a', () => {
    const patch = jsonPatch({ title: 'old', n: 1 }, { title: 'new', n: 1 });
    expect(patch).toEqual([
      { op: 'test', path: '/title', value: 'old' },
      { op: 'replace', path: '/title', value: 'new' },
    ]);
    expect(() => applyJsonPatch({ title: 'edited meanwhile', n: 1 }, patch)).toThrow('test failed');
  });

  it('a null that a merge patch cannot express is refused; one it need not write is not', () => {
    expect(() => mergePatch({ title: 'x' }, { title: null })).toThrow(InexpressibleNull);
    expect(() => mergePatch({}, { meta: { a: null } })).toThrow(InexpressibleNull);
    expect(mergePatch({ title: null, n: 1 }, { title: null, n: 2 })).toEqual({ n: 2 });
    expect(mergePatch({ title: 'x' }, {})).toEqual({ title: null });
    expect(mergePatch({ tags: [1] }, { tags: [null] })).toEqual({ tags: [null] });
  });
});
