import type { Accountability } from '@vellum/http';
import type { CollectionDef } from '../collection';
import type { ItemsDeps } from '../items-deps';
import { collectionDef } from '../catalogue-defs';
import { isPlainObject } from '../validate-write';
import { layNested } from './lay-nested';

type Item = Record<string, unknown>;

/**
 * A read in a version (`?version=<key>`): each row of an item the version has (`whole`: item key → delta) gets the
 * delta's nested data laid over (lay-nested.ts). The children were read with their keys (the version's changes name
 * them by key); a field the read did not ask of them (that key, a created child's other values) is dropped after.
 */
export async function layVersions(
  deps: ItemsDeps,
  a: Accountability | undefined,
  def: CollectionDef,
  rows: Item[],
  c: { aliases: Map<string, string[]> },
  whole: Map<string, Item>,
): Promise<void> {
  const expanded = (alias: string) => (c.aliases.get(alias) ?? []).some((p) => p !== '');
  const readable = (collection: string) => deps.rules.fields(a, collection, 'read');
  for (const row of rows) {
    const delta = whole.get(String(row[def.primaryKey]));
    if (delta) await layNested(def, row, delta, expanded, readable, (collection) => collectionDef(deps, collection));
  }
  // each child, read or laid, shows the fields the read asked of it (`comments.body`: body only)
  for (const [alias, paths] of c.aliases) {
    if (!expanded(alias) || paths.includes('*')) continue;
    const asked = new Set(paths.map((p) => p.split('.')[0]!.split(':')[0]!));
    for (const row of rows)
      for (const e of Array.isArray(row[alias]) ? (row[alias] as unknown[]) : [])
        if (isPlainObject(e)) for (const k of Object.keys(e)) if (!asked.has(k)) delete e[k];
  }
}
