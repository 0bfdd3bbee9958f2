import type { Accountability } from '@vellum/http';
import type { CollectionDef } from './collection';
import type { ItemsDeps } from './items-deps';
import type { Readable } from './query-schema';
import { collectionDefs } from './catalogue-defs';

const manyToOneTargets = (def: CollectionDef) =>
  def.relations.filter((r) => r.collection === def.collection && r.related_collection !== null).map((r) => r.related_collection!);

/**
 * The collections a read of `def` can reach through many-to-one fields that the caller may read, level by level
 * (one statement per level, none for a collection without relations), at most `depth` levels.
 */
export async function reachableCollections(deps: ItemsDeps, a: Accountability | undefined, def: CollectionDef, depth: number) {
  const out = new Map<string, Readable>();
  let next = manyToOneTargets(def);
  for (let level = 0; level < depth && next.length; level++) {
    const names = [...new Set(next)].filter((n) => n !== def.collection && !out.has(n) && deps.rules.fields(a, n, 'read'));
    if (names.length === 0) break;
    next = [];
    for (const d of await collectionDefs(deps, names)) {
      out.set(d.collection, { def: d, readable: deps.rules.fields(a, d.collection, 'read')! });
      next.push(...manyToOneTargets(d));
    }
  }
  // a collection relating to itself reaches itself
  if (manyToOneTargets(def).includes(def.collection)) out.set(def.collection, { def, readable: deps.rules.fields(a, def.collection, 'read')! });
  return out;
}
