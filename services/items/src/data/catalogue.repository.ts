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

/**
 * One collection's definition, read on the connection of the request. With `lock`, the catalogue row is held
 * FOR SHARE until the transaction ends, so a concurrent DELETE /collections cannot drop the table mid-write.
 */
export async function loadCollection(db: Queryable, name: string, lock = false): Promise<CollectionDef | undefined> {
  const c = await db.query<CollectionRow>(
    `SELECT "name", "primary_key", "meta", "schema" FROM public."collections" WHERE "name" = $1${lock ? ' FOR SHARE' : ''}`,
    [name],
  );
  if (c.rowCount === 0) return undefined;
  const f = await db.query<FieldRow>(
    `SELECT "collection", "field", "type", "schema", "meta" FROM public."fields" WHERE "collection" = $1 ORDER BY "sort", "field"`,
    [name],
  );
  return toCollectionDef(c.rows[0]!, f.rows);
}
