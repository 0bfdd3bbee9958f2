import type { CollectionDef } from '../collection';
import { manyToOne, oneToMany } from '../relation';
import { isPlainObject } from '../validate-write';
import { readableDelta, type ReadableOf } from './readable-delta';
import { applyChanges, isChanges, mergeSave, relatedDef, type DefOf } from './version-delta';

type Obj = Record<string, unknown>;

/**
 * A row read in a version (`?version=<key>`, one item or a list): the delta's nested relational data laid over the related rows the
 * read shows (own columns are laid over in the statement, versioned-read.ts), as Directus 11 does for expanded
 * fields — a one-to-many field read with its children's fields gets the version's changes (children deleted go,
 * updated ones take the changes, created ones are added; a list replaces it), a many-to-one object read takes the
 * version's object (merged when it is the same row). A field read as keys stays keys (the version's links; a row the
 * version creates has no key yet). Each value is cut to what the caller may read. Changes `item` in place.
 */
export async function layNested(
  def: CollectionDef,
  item: Obj,
  delta: Obj,
  expanded: (alias: string) => boolean,
  readable: ReadableOf,
  defOf: DefOf,
): Promise<void> {
  const relational = Object.keys(delta).filter(
    (k) => Object.hasOwn(item, k) && ((def.relations.length && oneToMany(def, k)) || (manyToOne(def, k) && isPlainObject(delta[k]))),
  );
  if (relational.length === 0) return;
  const cut = (await readableDelta(def, Object.fromEntries(relational.map((k) => [k, delta[k]])), readable, defOf)) as Obj;
  for (const [k, v] of Object.entries(cut)) {
    const o2m = oneToMany(def, k);
    if (o2m) {
      const child = await defOf(o2m.collection);
      if (!child) continue;
      const shown = Array.isArray(item[k]) ? (item[k] as unknown[]) : [];
      const changes = isChanges(v) ? { create: v.create ?? [], update: v.update ?? [], delete: v.delete ?? [] } : undefined;
      const laid = changes ? await applyChanges(child, shown, changes, defOf) : Array.isArray(v) ? await listed(child, shown, v, defOf) : shown;
      item[k] = expanded(k) ? laid : keysOf(laid, child.primaryKey);
    } else if (isPlainObject(v)) {
      const related = await relatedDef(def, k, item, defOf);
      if (!related) continue;
      const pk = related.primaryKey;
      const cur = item[k];
      if (!isPlainObject(cur)) item[k] = v[pk] ?? cur;
      else item[k] = cur[pk] !== undefined && String(cur[pk]) === String(v[pk]) ? await mergeSave(related, cur, v, defOf) : v;
    }
  }
}

const keysOf = (list: unknown[], pk: string) => list.map((e) => (isPlainObject(e) ? e[pk] : e)).filter((k) => k !== undefined && k !== null);

/** A version's one-to-many list: its entries, each of a child the read shows merged over that child. */
async function listed(child: CollectionDef, shown: unknown[], list: unknown[], defOf: DefOf): Promise<unknown[]> {
  const pk = child.primaryKey;
  const byKey = new Map(shown.filter(isPlainObject).map((c) => [String(c[pk]), c]));
  return Promise.all(
    list.map(async (e) => {
      if (!isPlainObject(e)) return byKey.get(String(e)) ?? e;
      const cur = e[pk] === undefined ? undefined : byKey.get(String(e[pk]));
      return cur ? mergeSave(child, cur, e, defOf) : e;
    }),
  );
}
