import type { CollectionDef, FieldDef, FieldType } from '../domain/collection';
import type { RelationDef } from '../domain/relation';
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

/** A relation as the catalogue holds it (`relations` row, many side first). */
export interface RelationRow {
  many_collection: string;
  many_field: string;
  one_collection: string | null;
  meta: unknown;
  schema: unknown;
}

export const toRelationDef = (r: RelationRow): RelationDef => ({
  collection: r.many_collection,
  field: r.many_field,
  related_collection: r.one_collection,
  meta: (r.meta ?? {}) as RelationDef['meta'],
  schema: (r.schema ?? null) as RelationDef['schema'],
});

export function toCollectionDef(c: CollectionRow, fields: FieldRow[], relations: RelationRow[] = []): CollectionDef {
  return {
    relations: relations.map(toRelationDef),
    collection: c.name,
    primaryKey: c.primary_key,
    meta: c.meta,
    schema: c.schema,
    fields: fields.map((f): FieldDef => ({ field: f.field, type: f.type as FieldType, schema: f.schema ?? {}, meta: f.meta })),
  };
}

/** A collection's catalogue row with its fields in order (`sort`, then name) and its relations (either side), as JSON: one statement. */
const loadText = (lock: boolean) => `SELECT c."name", c."primary_key", c."meta", c."schema",
       COALESCE((SELECT json_agg(json_build_object('collection', f."collection", 'field', f."field", 'type', f."type", 'schema', f."schema", 'meta', f."meta") ORDER BY f."sort", f."field")
                   FROM public."fields" f WHERE f."collection" = c."name"), '[]') AS "fields",
       COALESCE((SELECT json_agg(json_build_object('many_collection', r."many_collection", 'many_field', r."many_field", 'one_collection', r."one_collection", 'meta', r."meta", 'schema', r."schema") ORDER BY r."many_collection", r."many_field")
                   FROM public."relations" r WHERE r."many_collection" = c."name" OR r."one_collection" = c."name"), '[]') AS "relations"
  FROM public."collections" c WHERE c."name" = $1${lock ? ' FOR SHARE OF c' : ''}`;
const LOAD = { name: 'items_load_collection', text: loadText(false) };
const LOAD_MANY = { name: 'items_load_collections', text: loadText(false).replace('WHERE c."name" = $1', 'WHERE c."name" = ANY($1::text[])') };
const LOAD_LOCKED = { name: 'items_load_collection_locked', text: loadText(true) };

/**
 * One collection's definition, read on the connection of the request (one statement, prepared). With `lock`, the
 * catalogue row is held FOR SHARE until the transaction ends, so a concurrent DELETE /collections cannot drop the
 * table mid-write.
 */
export async function loadCollection(db: Queryable, name: string, lock = false): Promise<CollectionDef | undefined> {
  const c = await db.query<CollectionRow & { fields: FieldRow[]; relations: RelationRow[] }>({ ...(lock ? LOAD_LOCKED : LOAD), values: [name] });
  const row = c.rows[0];
  return row ? toCollectionDef(row, row.fields, row.relations) : undefined;
}

/** Several collections' definitions in one statement (the related collections of a read). */
export async function loadCollections(db: Queryable, names: string[]): Promise<CollectionDef[]> {
  const c = await db.query<CollectionRow & { fields: FieldRow[]; relations: RelationRow[] }>({ ...LOAD_MANY, values: [names] });
  return c.rows.map((row) => toCollectionDef(row, row.fields, row.relations));
}
