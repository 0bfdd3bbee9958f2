import type { CollectionDef } from './collection';
import { manyToOne, oneToMany } from './relation';
import { isPlainObject } from './validate-write';

/** Reads the keys of the parents (`fk` values) of the child rows that match `filter` (the caller's read rights apply). */
export type ParentKeys = (child: string, fk: string, filter: Record<string, unknown>) => Promise<unknown[]>;
/** A related collection's definition (undefined: none). */
export type DefOf = (collection: string) => Promise<CollectionDef | undefined>;

/**
 * A filter's conditions on alias fields (one-to-many, many-to-many), as Directus reads them: `{comments: {_some: F}}`
 * (or `{comments: F}`) — some child matches F; `{comments: {_none: F}}` — none does. Each becomes a condition on the
 * row's key (`_in` / `_nin` the parents of the matching children), read by one statement per condition; also
 * behind many-to-one fields (`{article: {comments: {_some: F}}}`: a condition on the related row's key).
 */
export async function resolveAliasFilters(def: CollectionDef, filter: unknown, parentKeys: ParentKeys, defOf: DefOf): Promise<unknown> {
  if (Array.isArray(filter)) return Promise.all(filter.map((f) => resolveAliasFilters(def, f, parentKeys, defOf)));
  if (!isPlainObject(filter)) return filter;
  const out: Record<string, unknown> = {};
  const extra: unknown[] = [];
  for (const [k, v] of Object.entries(filter)) {
    const r = k.startsWith('_') ? undefined : oneToMany(def, k);
    if (!r || !isPlainObject(v)) {
      const related = !k.startsWith('_') && isPlainObject(v) ? manyToOne(def, k)?.related_collection : undefined;
      const target = related ? await defOf(related) : undefined;
      if (target) out[k] = await resolveAliasFilters(target, v, parentKeys, defOf);
      else out[k] = k === '_and' || k === '_or' ? await resolveAliasFilters(def, v, parentKeys, defOf) : v;
      continue;
    }
    const none = isPlainObject(v._none);
    const inner = (none ? v._none : isPlainObject(v._some) ? v._some : v) as Record<string, unknown>;
    const keys = [...new Set((await parentKeys(r.collection, r.field, inner)).filter((x) => x !== null && x !== undefined))];
    // no matching child: _some matches no row (a key is never null), _none every row
    if (keys.length) extra.push({ [def.primaryKey]: none ? { _nin: keys } : { _in: keys } });
    else if (!none) extra.push({ [def.primaryKey]: { _null: true } });
  }
  if (extra.length === 0) return out;
  return { _and: [...(Object.keys(out).length ? [out] : []), ...extra] };
}
