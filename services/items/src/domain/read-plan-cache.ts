import type { CollectionDef } from './collection';

/** Plans kept per caller's rules and collection definition, at most this many queries each (then started afresh). */
const MAX_QUERIES = 256;

/**
 * A list read's plan, kept for the next read of the same query by a caller of the same rules: both the rules (a
 * role's RoleAccess, replaced whole when it changes: AccessRuleMap.apply) and the collection's definition (replaced,
 * with every other kept one, by the catalogue cache when any definition changes) are keys by identity, so a plan
 * never outlives either. Only what a plan depends on alone is kept: see `cacheKey`.
 */
export class ReadPlanCache<T> {
  private readonly byRules = new WeakMap<object, WeakMap<CollectionDef, Map<string, T>>>();

  get(rules: object, def: CollectionDef, key: string): T | undefined {
    return this.byRules.get(rules)?.get(def)?.get(key);
  }

  set(rules: object, def: CollectionDef, key: string, plan: T): void {
    let byDef = this.byRules.get(rules);
    if (!byDef) this.byRules.set(rules, (byDef = new WeakMap()));
    let plans = byDef.get(def);
    if (!plans || plans.size >= MAX_QUERIES) byDef.set(def, (plans = new Map()));
    plans.set(key, plan);
  }
}

/**
 * The key of a list query whose plan depends on the query, the caller's rules and the definitions only; undefined
 * for one that does not: a dynamic value (`$NOW`, `$CURRENT_USER`, … are read when planned), a version (its deltas
 * are read), a filter of a collection with relations (a filter on an alias field is resolved to keys by a read).
 */
export function cacheKey(def: CollectionDef, rawQuery: unknown): string | undefined {
  if (rawQuery === undefined) return '';
  if (typeof rawQuery !== 'object' || rawQuery === null) return undefined;
  const q = rawQuery as Record<string, unknown>;
  if (q.version !== undefined || (q.filter !== undefined && def.relations.length > 0)) return undefined;
  const key = JSON.stringify(rawQuery);
  return key.includes('$') ? undefined : key;
}

/** A number of its own for each definition object: kept statements are named after it, so none outlives its definition. */
const serials = new WeakMap<CollectionDef, number>();
let nextSerial = 0;
export function serialOf(def: CollectionDef): number {
  let n = serials.get(def);
  if (n === undefined) serials.set(def, (n = nextSerial++));
  return n;
}
