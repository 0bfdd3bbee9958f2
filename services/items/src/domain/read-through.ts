import type { CollectionDef } from './collection';
import type { DefOf } from './alias-filters';
import type { Readable } from './query-schema';
import { manyToOne, oneToMany } from './relation';
import { attachChildren, splitAliasPaths, type Deep, type ListRead } from './read-children';
import { isPlainObject } from './validate-write';

type Item = Record<string, unknown>;

/**
 * Paths that reach an alias field through many-to-one fields (`article.comments.body`,
 * `article.author.posts.title`): per first many-to-one field, the rest of its paths; `added`: the related rows'
 * keys the list's statement reads only so their children can be found (dropped after).
 */
export interface Through {
  paths: Map<string, string[]>;
  added: string[];
}

const relatedDef = (def: CollectionDef, field: string, reachable: Map<string, Readable>) => {
  const target = manyToOne(def, field)?.related_collection;
  return target ? reachable.get(target)?.def : undefined;
};

/** The many-to-one prefix of a path whose row holds the alias field the path names next, with that row's definition. */
function aliasBehind(def: CollectionDef, path: string, reachable: Map<string, Readable>) {
  const segments = path.split('.');
  let d: CollectionDef | undefined = def;
  for (let i = 0; i < segments.length - 1; i++) {
    d = relatedDef(d, segments[i]!, reachable);
    if (!d) return undefined;
    if (oneToMany(d, segments[i + 1]!)) return { prefix: segments.slice(0, i + 1).join('.'), def: d };
  }
  return undefined;
}

/** Paths grouped by their first segment, with the rest of each (`article.comments.body` → article: [comments.body]). */
function byFirstSegment(paths: string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const path of paths) {
    const dot = path.indexOf('.');
    if (dot > 0) out.set(path.slice(0, dot), [...(out.get(path.slice(0, dot)) ?? []), path.slice(dot + 1)]);
  }
  return out;
}

/** Whether `fields` reads this path anyway (named, or by a wildcard at its level: `article.*`, `*.*`). */
const covered = (fields: string[], path: string) => {
  const want = path.split('.');
  return fields.some((f) => {
    const got = f.split('.');
    return got.length === want.length && got.every((s, i) => s === '*' || s === want[i]);
  });
};

/**
 * `fields` split: the paths the list's statement joins (with the keys of the related rows that hold alias fields),
 * and those that reach an alias field behind many-to-one fields, read after the rows (`attachThrough`).
 */
export function splitThrough(def: CollectionDef, fields: string[], reachable: Map<string, Readable>): { own: string[]; through?: Through } {
  const own: string[] = [];
  const behindAliases: string[] = [];
  const keys = new Set<string>();
  for (const path of fields) {
    const behind = aliasBehind(def, path, reachable);
    if (!behind) own.push(path);
    else {
      behindAliases.push(path);
      keys.add(`${behind.prefix}.${behind.def.primaryKey}`);
    }
  }
  if (behindAliases.length === 0) return { own };
  const paths = byFirstSegment(behindAliases);
  const added = [...keys].filter((k) => !covered(fields, k));
  return { own: [...own, ...added], through: { paths, added } };
}

/**
 * The alias fields behind many-to-one fields, read for all the related rows of a level at once (attachChildren:
 * one statement per alias and level); `deep` follows the same path (`deep[article][comments][_limit]`).
 */
export async function attachThrough(
  def: CollectionDef,
  rows: Item[],
  paths: Map<string, string[]>,
  deep: Deep,
  depth: number,
  defOf: DefOf,
  readList: ListRead,
): Promise<void> {
  for (const [field, rest] of paths) {
    const target = manyToOne(def, field)?.related_collection;
    const related = target ? await defOf(target) : undefined;
    const objects = rows.map((row) => row[field]).filter(isPlainObject);
    if (!related || objects.length === 0) continue;
    const d = isPlainObject(deep[field]) ? (deep[field] as Deep) : {};
    const { own, aliases } = splitAliasPaths(related, rest);
    if (aliases.size) await attachChildren(related, objects, aliases, d, depth, readList);
    const deeper = byFirstSegment(own);
    if (deeper.size) await attachThrough(related, objects, deeper, d, depth + 1, defOf, readList);
  }
}

/** The keys read only to find the related rows' children, dropped from the answer. */
export function dropAdded(rows: Item[], added: string[]): void {
  for (const path of added) {
    const segments = path.split('.');
    let level: unknown[] = rows;
    for (const s of segments.slice(0, -1)) level = level.filter(isPlainObject).map((o) => o[s]);
    for (const o of level.filter(isPlainObject)) delete o[segments.at(-1)!];
  }
}
