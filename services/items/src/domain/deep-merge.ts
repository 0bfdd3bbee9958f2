import { isPlainObject } from './validate-write';

/**
 * `patch` laid over `base`, deeply: plain objects are merged key by key (a second nested save keeps the first's
 * keys, where Directus merges the top level only); anything else (arrays, scalars, null) replaces. Pure.
 */
export function deepMerge(base: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(patch)) {
    const prev = out[k];
    out[k] = isPlainObject(v) && isPlainObject(prev) ? deepMerge(prev, v) : v;
  }
  return out;
}
