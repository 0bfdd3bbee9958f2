import type { KeyValueSource } from './key-value-source';

/** Unit tests only: buckets in memory with the watch semantics of @vellum/messaging (initial values, then changes). */
export function fakeKeyValueSource() {
  const buckets = new Map<string, { values: Map<string, unknown>; watchers: Set<(key: string, value: unknown) => void> }>();
  const bucket = (name: string) => {
    let b = buckets.get(name);
    if (!b) buckets.set(name, (b = { values: new Map(), watchers: new Set() }));
    return b;
  };
  const put = (name: string, key: string, value: unknown) => {
    const b = bucket(name);
    if (value === undefined) b.values.delete(key);
    else b.values.set(key, value);
    for (const w of b.watchers) w(key, value);
  };
  const source: KeyValueSource = {
    async keyValue<T>(name: string) {
      const b = bucket(name);
      return {
        async watch(cb: (key: string, value: T | undefined) => void) {
          const w = cb as (key: string, value: unknown) => void;
          for (const [k, v] of b.values) w(k, v);
          b.watchers.add(w);
          return { stop: async () => void b.watchers.delete(w) };
        },
        get: async (key: string) => b.values.get(key) as T | undefined,
        put: async (key: string, value: T) => put(name, key, value),
      };
    },
  };
  return { source, put, watchers: (name: string) => bucket(name).watchers.size };
}
