import type { CollectionDef, FieldDef, FieldType } from '../domain/collection';
import type { Queryable } from './items-pool';

interface CollectionRow {
  name: string;
  primary_key: string;
  meta: Record<string, unknown> | null;
  schema: Record<string, unknown> | null;
}
interface FieldRow {
  collection: string;
  field: string;
  type: string;
  schema: Record<string, unknown>;
  meta: Record<string, unknown> | null;
}

export function toCollectionDef(c: CollectionRow, fields: FieldRow[]): CollectionDef {
  return {
    collection: c.name,
    primaryKey: c.primary_key,
    meta: c.meta,
    schema: c.schema,
    fields: fields.map((f): FieldDef => ({ field: f.field, type: f.type as FieldType, schema: f.schema ?? {}, meta: f.meta })),
  };
}

/** A collection's catalogue row with its fields in order (`sort`, then name), as JSON: one statement. */
const loadText = (lock: boolean) => `SELECT c."name", c."primary_key", c."meta", c."schema",
       COALESCE((SELECT json_agg(json_build_object('collection', f."collection", 'field', f."field", 'type', f."type", 'schema', f."schema", 'meta', f."meta") ORDER BY f."sort", f."field")
                   FROM public."fields" f WHERE f."collection" = c."name"), '[]') AS "fields"
  FROM public."collections" c WHERE c."name" = $1${lock ? ' FOR SHARE OF c' : ''}`;
const LOAD = { name: 'items_load_collection', text: loadText(false) };
const LOAD_LOCKED = { name: 'items_load_collection_locked', text: loadText(true) };

/**
 * One collection's definition, read on the connection of the request (one statement, prepared). With `lock`, the
 * catalogue row is held FOR SHARE until the transaction ends, so a concurrent DELETE /collections cannot drop the
 * table mid-write.
 */
export async function loadCollection(db: Queryable, name: string, lock = false): Promise<CollectionDef | undefined> {
  const c = await db.query<CollectionRow & { fields: FieldRow[] }>({ ...(lock ? LOAD_LOCKED : LOAD), values: [name] });
  const row = c.rows[0];
  return row ? toCollectionDef(row, row.fields) : undefined;
}
