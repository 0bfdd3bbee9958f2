import type { CollectionDef } from '../collection';
import { deepMerge } from '../deep-merge';
import { manyToOne, oneToMany } from '../relation';
import { isPlainObject } from '../validate-write';

type Obj = Record<string, unknown>;
/** A collection's definition by name (undefined: no such collection). */
export type DefOf = (collection: string) => Promise<CollectionDef | undefined>;
/** Directus's `{create, update, delete}` shape of a one-to-many value. */
export interface Changes {
  create: Obj[];
  update: Obj[];
  delete: unknown[];
}

/** Whether a value is the `{create, update, delete}` shape (every key one of the three, each an array). */
export const isChanges = (v: unknown): v is Partial<Changes> =>
  isPlainObject(v) && Object.keys(v).length > 0 && Object.entries(v).every(([k, x]) => ['create', 'update', 'delete'].includes(k) && Array.isArray(x));

const changesOf = (v: Partial<Changes>): Changes => ({ create: v.create ?? [], update: v.update ?? [], delete: v.delete ?? [] });
const keyOf = (entry: unknown, pk: string): string | undefined =>
  isPlainObject(entry) ? (entry[pk] === undefined || entry[pk] === null ? undefined : String(entry[pk])) : entry === null ? undefined : String(entry);

/** A related row's definition through a many-to-one field (a many-to-any's: the collection the row names). */
export async function relatedDef(def: CollectionDef, field: string, row: Obj | undefined, defOf: DefOf): Promise<CollectionDef | undefined> {
  const m2o = manyToOne(def, field);
  if (!m2o) return undefined;
  if (m2o.related_collection) return defOf(m2o.related_collection);
  const named = def.relations.find((r) => r.collection === def.collection && r.meta.one_collection_field && r.field === field)?.meta.one_collection_field;
  const target = named ? row?.[named] : undefined;
  return typeof target === 'string' ? defOf(target) : undefined;
}

/**
 * One save laid over a version's delta: plain objects merged key by key, and relational values as a person saving
 * twice means them — one-to-many changes accumulate (the creates of both saves, the updates of one child merged, the
 * deletes of both; a child deleted later loses its updates), a many-to-one object of the same related row is merged
 * (another row, or a new one, replaces it). Directus keeps the second save's value of a top-level field only.
 */
export async function mergeSave(def: CollectionDef, base: Obj, save: Obj, defOf: DefOf): Promise<Obj> {
  const out: Obj = { ...base };
  for (const [k, v] of Object.entries(save)) {
    const prev = out[k];
    const o2m = def.relations.length ? oneToMany(def, k) : undefined;
    if (o2m && isChanges(v) && (isChanges(prev) || Array.isArray(prev))) {
      const child = await defOf(o2m.collection);
      if (!child) out[k] = v;
      else
        out[k] = isChanges(prev)
          ? await mergeChanges(child, changesOf(prev), changesOf(v), defOf)
          : await applyChanges(child, prev as unknown[], changesOf(v), defOf);
    } else if (isPlainObject(v) && isPlainObject(prev) && manyToOne(def, k)) {
      // the same related row (the same key, or both a new row without one) is merged; another replaces it
      const related = await relatedDef(def, k, out, defOf);
      out[k] = related && keyOf(v, related.primaryKey) === keyOf(prev, related.primaryKey) ? await mergeSave(related, prev, v, defOf) : v;
    } else out[k] = isPlainObject(v) && isPlainObject(prev) ? deepMerge(prev, v) : v;
  }
  return out;
}

/** Two saves' one-to-many changes as one. */
async function mergeChanges(child: CollectionDef, a: Changes, b: Changes, defOf: DefOf): Promise<Changes> {
  const pk = child.primaryKey;
  const deleted = new Set([...a.delete, ...b.delete].map((k) => String(k)));
  const update: Obj[] = [];
  for (const u of [...a.update, ...b.update]) {
    const key = keyOf(u, pk);
    if (key !== undefined && deleted.has(key)) continue;
    const at = key === undefined ? -1 : update.findIndex((x) => keyOf(x, pk) === key);
    if (at === -1) update.push(u);
    else update[at] = await mergeSave(child, update[at]!, u, defOf);
  }
  const seen = new Set<string>();
  const del = [...a.delete, ...b.delete].filter((k) => !seen.has(String(k)) && !!seen.add(String(k)));
  return { create: [...a.create, ...b.create], update, delete: del };
}

/** A one-to-many list (keys and objects, as a save's array gives them) with changes applied: still a list. */
export async function applyChanges(child: CollectionDef, list: unknown[], c: Changes, defOf: DefOf): Promise<unknown[]> {
  const pk = child.primaryKey;
  const deleted = new Set(c.delete.map((k) => String(k)));
  const out = list.filter((e) => {
    const key = keyOf(e, pk);
    return key === undefined || !deleted.has(key);
  });
  for (const u of c.update) {
    const key = keyOf(u, pk);
    const at = key === undefined ? -1 : out.findIndex((e) => keyOf(e, pk) === key);
    if (at === -1) out.push(u);
    else out[at] = isPlainObject(out[at]) ? await mergeSave(child, out[at] as Obj, u, defOf) : u;
  }
  return [...out, ...c.create];
}
