import type { CollectionDef } from '../collection';
import { permits } from '../access-rules';
import { manyToOne, oneToMany } from '../relation';
import { isPlainObject } from '../validate-write';
import { isChanges, relatedDef, type DefOf } from './version-delta';

type Obj = Record<string, unknown>;
/** The fields the caller may read of a collection ('*': all; null: none). */
export type ReadableOf = (collection: string) => '*' | string[] | null;

/**
 * A version's delta (or one save) cut to what the caller may read today, at every level: its own collection's
 * readable fields, and in nested relational data each related collection's — a related row of a collection the
 * caller may not read keeps only its key (a new one goes), a one-to-many list or change of such a collection goes.
 */
export async function readableDelta(def: CollectionDef, delta: unknown, readable: ReadableOf, defOf: DefOf): Promise<unknown> {
  if (!isPlainObject(delta)) return delta;
  const allowed = readable(def.collection);
  if (allowed === null) return {};
  const out: Obj = {};
  for (const [k, v] of Object.entries(delta)) {
    if (k !== def.primaryKey && !permits(allowed, k)) continue;
    const o2m = def.relations.length ? oneToMany(def, k) : undefined;
    if (o2m && (Array.isArray(v) || isChanges(v))) {
      const child = await defOf(o2m.collection);
      if (!child || readable(child.collection) === null) continue;
      out[k] = await cutChildren(child, v, readable, defOf);
    } else if (isPlainObject(v) && manyToOne(def, k)) {
      const related = await relatedDef(def, k, delta, defOf);
      if (related && readable(related.collection) !== null) out[k] = await readableDelta(related, v, readable, defOf);
      else if (related && v[related.primaryKey] !== undefined) out[k] = v[related.primaryKey];
    } else out[k] = v;
  }
  return out;
}

async function cutChildren(
  child: CollectionDef,
  v: unknown[] | { create?: unknown[]; update?: unknown[]; delete?: unknown[] },
  readable: ReadableOf,
  defOf: DefOf,
) {
  const each = (list: unknown[]) => Promise.all(list.map((e) => (isPlainObject(e) ? readableDelta(child, e, readable, defOf) : e)));
  if (Array.isArray(v)) return each(v);
  const out: Obj = {};
  for (const [k, list] of Object.entries(v)) out[k] = k === 'delete' ? list : await each(list as unknown[]);
  return out;
}
