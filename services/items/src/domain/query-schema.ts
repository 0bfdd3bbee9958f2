import { defineSchema, type QuerySchema, type TableSchema } from '@vellum/query';
import type { CollectionDef } from './collection';
import { permits } from './access-rules';

/** A collection a read may reach, with the fields the caller may read in it. */
export interface Readable {
  def: CollectionDef;
  readable: '*' | string[];
}

function tableOf({ def, readable }: Readable, reachable: Map<string, Readable> | undefined): TableSchema {
  const fields = Object.fromEntries(
    def.fields
      .filter((f) => f.field === def.primaryKey || permits(readable, f.field))
      .map((f) => {
        const m2o = def.relations.find((r) => r.collection === def.collection && r.field === f.field && r.related_collection !== null);
        // a many-to-one field relates only when the caller may read the related collection; otherwise it is its key
        return [f.field, m2o && reachable?.has(m2o.related_collection!) ? { type: f.type, relation: m2o.related_collection! } : { type: f.type }];
      }),
  );
  return { name: def.collection, table: def.collection, primaryKey: def.primaryKey, fields };
}

/**
 * The query language's view of a collection, limited to the fields the caller may read: any other field in
 * `fields`, `filter`, `sort`, `search` or `aggregate` is unknown to the planner (403). The primary key is
 * always part of a readable collection. `reachable`: the readable collections its many-to-one fields lead to
 * (transitively), so `author.name`, `*.*` and `filter[author][name]` join them.
 */
export function toQuerySchema(def: CollectionDef, readable: '*' | string[], reachable?: Map<string, Readable>): QuerySchema {
  const tables: Record<string, TableSchema> = {};
  for (const r of reachable?.values() ?? []) tables[r.def.collection] = tableOf(r, reachable);
  tables[def.collection] = tableOf({ def, readable }, reachable);
  return defineSchema(tables);
}
