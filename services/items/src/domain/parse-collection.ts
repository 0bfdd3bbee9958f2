import { errors } from '@vellum/errors';
import { FIELD_TYPES, RESERVED_COLLECTIONS, identifierProblem, type CollectionDef, type FieldDef, type FieldSchema, type FieldType } from './collection';
import { coerceValue } from './coerce-value';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * `POST /collections` body (Directus shape) → a collection definition. Without a primary key field, an `id`
 * integer with auto increment is added (as Directus does). Throws 400 INVALID_PAYLOAD with the first problem.
 */
export function parseCollection(body: unknown): CollectionDef {
  if (!isObject(body)) throw errors.invalidPayload('The body must be an object');
  const nameProblem = identifierProblem(body.collection, 'collection');
  if (nameProblem) throw errors.invalidPayload(nameProblem);
  const collection = body.collection as string;
  if (RESERVED_COLLECTIONS.has(collection)) throw errors.invalidPayload(`collection "${collection}" is a reserved name`);
  if (body.meta !== undefined && body.meta !== null && !isObject(body.meta)) throw errors.invalidPayload('"meta" must be an object');
  if (body.schema !== undefined && body.schema !== null && !isObject(body.schema)) throw errors.invalidPayload('"schema" must be an object');
  const rawFields = body.fields ?? [];
  if (!Array.isArray(rawFields)) throw errors.invalidPayload('"fields" must be an array');

  const fields: FieldDef[] = [];
  for (const raw of rawFields) {
    if (!isObject(raw)) throw errors.invalidPayload('every field must be an object');
    const problem = identifierProblem(raw.field, 'field');
    if (problem) throw errors.invalidPayload(problem);
    const name = raw.field as string;
    if (fields.some((f) => f.field === name)) throw errors.invalidPayload(`field "${name}" appears twice`);
    if (typeof raw.type !== 'string' || !(FIELD_TYPES as readonly string[]).includes(raw.type)) {
      throw errors.invalidPayload(`field "${name}": type must be one of ${FIELD_TYPES.join(', ')}`);
    }
    const type = raw.type as FieldType;
    if (raw.schema !== undefined && raw.schema !== null && !isObject(raw.schema)) throw errors.invalidPayload(`field "${name}": "schema" must be an object`);
    if (raw.meta !== undefined && raw.meta !== null && !isObject(raw.meta)) throw errors.invalidPayload(`field "${name}": "meta" must be an object`);
    const schema: FieldSchema = { ...((raw.schema as Record<string, unknown> | undefined) ?? {}) };
    for (const flag of ['is_primary_key', 'has_auto_increment', 'is_nullable', 'is_unique', 'is_indexed'] as const) {
      if (schema[flag] !== undefined && schema[flag] !== null && typeof schema[flag] !== 'boolean') {
        throw errors.invalidPayload(`field "${name}": schema.${flag} must be a boolean`);
      }
    }
    for (const n of ['max_length', 'numeric_precision', 'numeric_scale'] as const) {
      const v = schema[n];
      if (v !== undefined && v !== null && !(Number.isInteger(v) && (v as number) >= (n === 'numeric_scale' ? 0 : 1) && (v as number) <= 10485760)) {
        throw errors.invalidPayload(`field "${name}": schema.${n} must be a positive integer`);
      }
    }
    if (type === 'decimal') {
      const p = schema.numeric_precision ?? 10;
      const s = schema.numeric_scale ?? 5;
      if (p > 1000 || s > p) throw errors.invalidPayload(`field "${name}": numeric_scale must not exceed numeric_precision (≤ 1000)`);
    }
    fields.push({ field: name, type, schema, meta: (raw.meta as Record<string, unknown> | undefined) ?? null });
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
    meta: (body.meta as Record<string, unknown> | undefined) ?? null,
    schema: (body.schema as Record<string, unknown> | undefined) ?? null,
  };
}
