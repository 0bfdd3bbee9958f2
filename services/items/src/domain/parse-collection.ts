import type { CollectionRequest } from '@vellum/contracts';
import { errors } from '@vellum/errors';
import { RESERVED_COLLECTIONS, type CollectionDef, type FieldDef, type FieldSchema } from './collection';
import { coerceValue } from './coerce-value';
import { RESERVED_FIELDS } from './plan-field-change';

/**
 * `POST /collections` body (Directus shape, its structure already validated with `collectionRequestSchema`) → a
 * collection definition. Without a primary key field, an `id` integer with auto increment is added (as Directus
 * does). Throws 400 INVALID_PAYLOAD with the first problem the schema cannot see (names, keys, defaults).
 */
export function parseCollection(body: CollectionRequest): CollectionDef {
  const collection = body.collection;
  if (RESERVED_COLLECTIONS.has(collection)) throw errors.invalidPayload(`collection "${collection}" is a reserved name`);

  const fields: FieldDef[] = [];
  for (const raw of body.fields ?? []) {
    const name = raw.field;
    if (RESERVED_FIELDS.has(name)) throw errors.invalidPayload(`field "${name}" is a reserved name`);
    if (fields.some((f) => f.field === name)) throw errors.invalidPayload(`field "${name}" appears twice`);
    const type = raw.type;
    const schema = { ...raw.schema } as FieldSchema;
    if (type === 'decimal') {
      const p = schema.numeric_precision ?? 10;
      const s = schema.numeric_scale ?? 5;
      if (p > 1000 || s > p) throw errors.invalidPayload(`field "${name}": numeric_scale must not exceed numeric_precision (≤ 1000)`);
    }
    fields.push({ field: name, type, schema, meta: raw.meta ?? null });
  }

  const pks = fields.filter((f) => f.schema.is_primary_key === true);
  if (pks.length > 1) throw errors.invalidPayload('a collection has exactly one primary key field');
  let pk = pks[0];
  if (!pk) {
    if (fields.some((f) => f.field === 'id')) throw errors.invalidPayload('field "id" exists but is not marked schema.is_primary_key');
    pk = { field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true }, meta: null };
    fields.unshift(pk);
  }
  if (pk.type === 'integer' || pk.type === 'bigInteger') {
    pk.schema.has_auto_increment = pk.schema.has_auto_increment ?? true;
  } else if (pk.type === 'uuid') {
    pk.schema.has_auto_increment = false;
  } else {
    throw errors.invalidPayload(`primary key "${pk.field}" must be an integer (auto increment) or a uuid (generated)`);
  }
  pk.schema.is_nullable = false;
  pk.schema.is_unique = true;

  for (const f of fields) {
    if (f === pk) continue;
    if (f.schema.has_auto_increment) throw errors.invalidPayload(`field "${f.field}": only the primary key may auto increment`);
    if (f.schema.default_value !== undefined && f.schema.default_value !== null) {
      try {
        f.schema.default_value = coerceValue(f, f.schema.default_value);
      } catch {
        throw errors.invalidPayload(`field "${f.field}": schema.default_value is not a valid ${f.type}`);
      }
    }
  }

  return {
    collection,
    primaryKey: pk.field,
    fields,
    meta: body.meta ?? null,
    schema: body.schema ?? null,
    relations: [],
  };
}
