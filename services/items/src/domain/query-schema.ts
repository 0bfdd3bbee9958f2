import { defineSchema, type QuerySchema } from '@vellum/query';
import type { CollectionDef } from './collection';
import { permits } from './access-rules';

/**
 * The query language's view of a collection, limited to the fields the caller may read: any other field in
 * `fields`, `filter`, `sort`, `search` or `aggregate` is unknown to the planner (403). The primary key is
 * always part of a readable collection.
 */
export function toQuerySchema(def: CollectionDef, readable: '*' | string[]): QuerySchema {
  const fields = Object.fromEntries(def.fields.filter((f) => f.field === def.primaryKey || permits(readable, f.field)).map((f) => [f.field, { type: f.type }]));
  return defineSchema({ [def.collection]: { name: def.collection, table: def.collection, primaryKey: def.primaryKey, fields } });
}
