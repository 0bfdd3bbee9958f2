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

/** One alias field's read: its relation's key field, the paths asked of its children, its `deep`. */
export interface AliasRead {
  alias: string;
  collection: string;
  fk: string;
  keysOnly: boolean;
  asked: string[];
  deep: Deep;
  /** `deep` keys for the children's own aliases. */
  nested: Deep;
  /** The parent's key field: in the children's key field when a path expands it (`comments.article.title`). */
  parentKey: string;
  /** The path read only to place the children under an expanded key field, dropped after (`article.id`). */
  addedKey?: string;
}

export function aliasRead(def: CollectionDef, alias: string, paths: string[], deep: Deep): AliasRead {
  const r = oneToMany(def, alias)!;
  const keysOnly = paths.every((p) => p === '');
  const d = isPlainObject(deep[alias]) ? (deep[alias] as Deep) : {};
  const nested = Object.fromEntries(Object.entries(d).filter(([k]) => !k.startsWith('_')));
  const asked = keysOnly ? [] : paths.filter((p) => p !== '');
  // a path through the key field (`article.title`) turns it into an object, which must then hold the parent's key
  const addedKey = `${r.field}.${def.primaryKey}`;
  const keyRead = !asked.some((p) => p.startsWith(`${r.field}.`)) || asked.includes(addedKey) || asked.includes(`${r.field}.*`);
  return { alias, collection: r.collection, fk: r.field, keysOnly, asked, deep: d, nested, parentKey: def.primaryKey, ...(keyRead ? {} : { addedKey }) };
}

/**
 * The list query of an alias's children (as the caller; `keys`: only those of these parents), given the child's
 * definition; `keyed`: their own keys read too (a version's changes name children by key, lay-nested.ts).
 */
export function childQuery(a: AliasRead, child: CollectionDef, own: string[], keys?: unknown[], keyed = false): Record<string, unknown> {
  const d = a.deep;
  const conds = [...(keys ? [{ [a.fk]: { _in: keys } }] : []), ...(isPlainObject(d._filter) ? [d._filter] : [])];
  return {
    fields: [
      ...(a.keysOnly ? [child.primaryKey] : own),
      a.fk,
      ...(a.addedKey ? [a.addedKey] : []),
      ...(keyed && !a.keysOnly && !own.includes(child.primaryKey) ? [child.primaryKey] : []),
    ],
    ...(conds.length ? { filter: { _and: conds } } : {}),
    limit: -1,
    deep: a.nested,
    ...(d._sort !== undefined ? { sort: d._sort } : {}),
  };
}

/** The children kept per parent: `deep._limit` (undefined: all) from `deep._offset` (400 when not counts). */
export const childrenWindow = (a: AliasRead) => ({
  limit: count(a.deep._limit, `deep.${a.alias}._limit`),
  offset: count(a.deep._offset, `deep.${a.alias}._offset`) ?? 0,
});

/** Children read (in their order) put on their parent rows, cut per parent by `deep._limit`/`_offset`. */
export function placeChildren(def: CollectionDef, rows: Item[], a: AliasRead, data: Item[], child: CollectionDef): void {
  const { limit, offset } = childrenWindow(a);
  const hasFk = a.asked.some((p) => p === '*' || p === a.fk || p.startsWith('*.') || p.startsWith(`${a.fk}.`));
  const groups = new Map<string, Item[]>();
  for (const c of data) {
    // the key field as read, or the parent's row it was expanded to (`comments.article.title`, `comments.*.*`)
    const fk = c[a.fk];
    const k = String(isPlainObject(fk) ? fk[a.parentKey] : fk);
    if (a.addedKey && isPlainObject(fk)) delete fk[a.parentKey];
    if (!hasFk) delete c[a.fk];
    groups.set(k, [...(groups.get(k) ?? []), c]);
  }
  for (const row of rows) {
    const group = (groups.get(String(row[def.primaryKey])) ?? []).slice(offset, limit === undefined ? undefined : offset + limit);
    row[a.alias] = a.keysOnly ? group.map((c) => c[child.primaryKey]) : group;
  }
}

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
  keyed = false,
): Promise<void> {
  for (const [alias, paths] of aliases) {
    const a = aliasRead(def, alias, paths, deep);
    const keys = rows.map((row) => row[def.primaryKey]).filter((k) => k !== null && k !== undefined);
    if (keys.length === 0) {
      for (const row of rows) row[alias] = [];
      continue;
    }
    let scoped: Scoped | undefined;
    const { data, def: child } = await readList(
      a.collection,
      (c) => {
        scoped = a.keysOnly ? undefined : scopedPaths(c, a.asked);
        return childQuery(a, c, scoped ? scoped.plain : a.asked, keys, keyed);
      },
      depth + 1,
    );
    if (scoped) await readScoped(data, scoped, depth + 2, readList);
    placeChildren(def, rows, a, data, child);
  }
}

/** A junction's many-to-any paths (`item:headings.title`): per collection, the paths to read of the rows `item` names. */
interface Scoped {
  field: string;
  collectionField: string;
  plain: string[];
  byCollection: Map<string, string[]>;
}

export function scopedPaths(junction: CollectionDef, asked: string[]): Scoped | undefined {
  const m2a = junction.relations.find((x) => x.collection === junction.collection && x.related_collection === null && x.meta.one_collection_field);
  if (!m2a) return undefined;
  const out: Scoped = { field: m2a.field, collectionField: m2a.meta.one_collection_field!, plain: [], byCollection: new Map() };
  for (const p of asked) {
    const m = /^([a-z0-9_]+):([a-z0-9_]+)\.(.+)$/.exec(p);
    if (!m || m[1] !== m2a.field) out.plain.push(p);
    else out.byCollection.set(m[2]!, [...(out.byCollection.get(m[2]!) ?? []), m[3]!]);
  }
  if (out.byCollection.size === 0) return undefined;
  for (const f of [out.field, out.collectionField]) if (!out.plain.includes(f) && !out.plain.includes('*')) out.plain.push(f);
  return out;
}

/** Each scoped collection's rows read once (its keys from the junction rows that name it), put in place of their keys. */
async function readScoped(rows: Item[], s: Scoped, depth: number, readList: ListRead): Promise<void> {
  for (const [collection, paths] of s.byCollection) {
    const named = rows.filter((row) => row[s.collectionField] === collection && row[s.field] != null);
    if (named.length === 0) continue;
    const { data, def } = await readList(
      collection,
      (c) => ({ fields: [...paths, c.primaryKey], filter: { [c.primaryKey]: { _in: [...new Set(named.map((row) => row[s.field]))] } }, limit: -1 }),
      depth,
    );
    const byKey = new Map(data.map((x) => [String(x[def.primaryKey]), x]));
    // the key was read to place the rows: not part of the answer unless asked
    if (!paths.includes(def.primaryKey) && !paths.includes('*')) for (const x of data) delete x[def.primaryKey];
    for (const row of named) row[s.field] = byKey.get(String(row[s.field])) ?? row[s.field];
  }
}
