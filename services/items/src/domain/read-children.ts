import { errors } from '@vellum/errors';
import type { CollectionDef } from './collection';
import { oneToMany } from './relation';
import { isPlainObject } from './validate-write';

type Item = Record<string, unknown>;
/** `deep` of one level: `_filter`, `_sort`, `_limit`, `_offset` for an alias field's children, and deeper aliases by name. */
export type Deep = Record<string, unknown>;

/** `fields` split: the paths the row's own statement reads, and per alias field the paths read from its children ('' : the keys). */
export function splitAliasPaths(def: CollectionDef, fields: string[]): { own: string[]; aliases: Map<string, string[]> } {
  const own: string[] = [];
  const aliases = new Map<string, string[]>();
  for (const path of fields) {
    const dot = path.indexOf('.');
    const first = dot < 0 ? path : path.slice(0, dot);
    if (!oneToMany(def, first)) own.push(path);
    else aliases.set(first, [...(aliases.get(first) ?? []), dot < 0 ? '' : path.slice(dot + 1)]);
  }
  return { own, aliases };
}

/** `deep` as sent: an object (bracket form) or its JSON. */
export function parseDeep(raw: unknown): Deep {
  if (raw === undefined) return {};
  let v = raw;
  if (typeof raw === 'string') {
    try {
      v = JSON.parse(raw);
    } catch {
      throw errors.invalidQuery('"deep" must be an object or its JSON.');
    }
  }
  if (!isPlainObject(v)) throw errors.invalidQuery('"deep" must be an object or its JSON.');
  return v;
}

const count = (v: unknown, name: string) => {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw errors.invalidQuery(`"${name}" must be a non-negative integer.`);
  return n;
};

/** A list read of a child collection; its query is built once its definition is known (the keys alone need its primary key's name). */
export type ListRead = (
  collection: string,
  query: (child: CollectionDef) => Record<string, unknown>,
  depth: number,
) => Promise<{ data: Item[]; def: CollectionDef }>;

/**
 * Each alias field asked for, read for all the rows at once: one list of the child collection (the caller's read
 * permission on it applies: 403 when it may not) filtered by the parents' keys and `deep._filter`, sorted by
 * `deep._sort`; then cut per parent by `deep._limit`/`_offset`. Deeper aliases recurse the same way, one statement per level.
 */
export async function attachChildren(
  def: CollectionDef,
  rows: Item[],
  aliases: Map<string, string[]>,
  deep: Deep,
  depth: number,
  readList: ListRead,
): Promise<void> {
  for (const [alias, paths] of aliases) {
    const r = oneToMany(def, alias)!;
    const fk = r.field;
    const keysOnly = paths.every((p) => p === '');
    const asked = keysOnly ? [] : paths.filter((p) => p !== '');
    const d = isPlainObject(deep[alias]) ? (deep[alias] as Deep) : {};
    const keys = rows.map((row) => row[def.primaryKey]).filter((k) => k !== null && k !== undefined);
    if (keys.length === 0) {
      for (const row of rows) row[alias] = [];
      continue;
    }
    const hasFk = asked.includes('*') || asked.includes(fk);
    const nested = Object.fromEntries(Object.entries(d).filter(([k]) => !k.startsWith('_')));
    const filter = { _and: [{ [fk]: { _in: keys } }, ...(isPlainObject(d._filter) ? [d._filter] : [])] };
    const { data, def: child } = await readList(
      r.collection,
      (c) => ({ fields: [...(keysOnly ? [c.primaryKey] : asked), fk], filter, limit: -1, deep: nested, ...(d._sort !== undefined ? { sort: d._sort } : {}) }),
      depth + 1,
    );
    const limit = count(d._limit, `deep.${alias}._limit`);
    const offset = count(d._offset, `deep.${alias}._offset`) ?? 0;
    const groups = new Map<string, Item[]>();
    for (const child of data) {
      const k = String(child[fk]);
      if (!hasFk) delete child[fk];
      groups.set(k, [...(groups.get(k) ?? []), child]);
    }
    for (const row of rows) {
      const group = (groups.get(String(row[def.primaryKey])) ?? []).slice(offset, limit === undefined ? undefined : offset + limit);
      row[alias] = keysOnly ? group.map((c) => c[child.primaryKey]) : group;
    }
  }
}
