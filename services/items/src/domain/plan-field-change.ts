import type { CollectionUpdateRequest, FieldRequest, FieldUpdateRequest } from '@vellum/contracts';
import { errors } from '@vellum/errors';
import { fieldOf, type CollectionDef, type FieldDef, type FieldSchema } from './collection';
import { coerceValue } from './coerce-value';
import type { SchemaChange } from './schema-change';
import { oneToMany } from './relation';
import { sqlType as sqlTypeOf } from '../data/content-schema';

/** PostgreSQL's system columns: a column of that name cannot be added. */
export const RESERVED_FIELDS = new Set(['ctid', 'xmin', 'xmax', 'cmin', 'cmax', 'tableoid', 'oid']);

/** A default checked against the field's type (a 400 naming the field when it does not fit). */
function checkDefault(f: FieldDef) {
  if (f.schema.default_value === undefined || f.schema.default_value === null) return;
  try {
    f.schema.default_value = coerceValue({ ...f, schema: { ...f.schema, is_nullable: true } }, f.schema.default_value);
  } catch {
    throw errors.invalidPayload(`field "${f.field}": schema.default_value is not a valid ${f.type}`);
  }
}

function checkDecimal(f: FieldDef) {
  if (f.type !== 'decimal') return;
  const p = f.schema.numeric_precision ?? 10;
  const s = f.schema.numeric_scale ?? 5;
  if (p > 1000 || s > p) throw errors.invalidPayload(`field "${f.field}": numeric_scale must not exceed numeric_precision (≤ 1000)`);
}

/** `POST /fields/:collection` → the column to add (never a key: a collection has its primary key from creation). */
export function planAddField(def: CollectionDef, body: FieldRequest): SchemaChange {
  const name = body.field;
  if (RESERVED_FIELDS.has(name)) throw errors.invalidPayload(`field "${name}" is a reserved name`);
  if (name === def.primaryKey) throw errors.invalidPayload(`field "${name}" is the primary key of "${def.collection}"`);
  if (fieldOf(def, name)) throw errors.invalidPayload(`field "${name}" already exists in "${def.collection}"`);
  const schema = { ...body.schema } as FieldSchema;
  if (schema.is_primary_key) throw errors.invalidPayload(`field "${name}": a collection's primary key cannot be added later`);
  if (schema.has_auto_increment) throw errors.invalidPayload(`field "${name}": only the primary key may auto increment`);
  const field: FieldDef = { field: name, type: body.type, schema: { ...schema, is_primary_key: false }, meta: body.meta ?? null };
  checkDecimal(field);
  checkDefault(field);
  return { kind: 'add', field };
}

/**
 * Type changes PostgreSQL makes without rewriting the table or losing a value: a longer varchar, varchar ↔ text
 * towards text, a decimal with more precision and the same scale. Anything else is refused.
 */
function safeTypeChange(before: FieldDef, after: FieldDef): boolean {
  const from = sqlTypeOf(before);
  const to = sqlTypeOf(after);
  if (from === to) return true;
  const textual = (f: FieldDef) => f.type === 'string' || f.type === 'text';
  if (textual(before) && textual(after)) {
    if (to === 'text') return true;
    if (from === 'text') return false;
    return (after.schema.max_length ?? 255) >= (before.schema.max_length ?? 255);
  }
  if (before.type === 'decimal' && after.type === 'decimal') {
    return (
      (after.schema.numeric_scale ?? 5) === (before.schema.numeric_scale ?? 5) &&
      (after.schema.numeric_precision ?? 10) >= (before.schema.numeric_precision ?? 10)
    );
  }
  return false;
}

const FIXED = ['is_primary_key', 'has_auto_increment', 'is_unique'] as const;

/** `PATCH /fields/:collection/:field` → the field as it will be (meta and schema merged into the stored ones). */
export function planUpdateField(def: CollectionDef, name: string, body: FieldUpdateRequest): SchemaChange {
  const before = fieldOf(def, name);
  const alias = before ? undefined : oneToMany(def, name);
  if (alias) {
    const relation = `${alias.collection}/${alias.field}`;
    throw errors.invalidPayload(`field "${name}" is the alias of the relation ${relation}: change it with PATCH /relations/${relation}`);
  }
  if (!before) throw errors.invalidPayload(`field "${name}" does not exist in "${def.collection}"`);
  if (body.field !== undefined && body.field !== name) throw errors.invalidPayload(`field "${name}" cannot be renamed`);
  const schema = { ...before.schema, ...(body.schema ?? {}) } as FieldSchema;
  for (const k of FIXED) {
    if (body.schema?.[k] !== undefined && body.schema[k] !== null && Boolean(body.schema[k]) !== Boolean(before.schema[k])) {
      throw errors.invalidPayload(`field "${name}": schema.${k} cannot be changed`);
    }
  }
  const after: FieldDef = {
    field: name,
    type: body.type ?? before.type,
    schema,
    meta: body.meta === undefined ? before.meta : { ...(before.meta ?? {}), ...(body.meta ?? {}) },
  };
  if (name === def.primaryKey) {
    if (after.type !== before.type || sqlTypeOf(after) !== sqlTypeOf(before))
      throw errors.invalidPayload(`field "${name}": the primary key's type cannot be changed`);
    if (schema.is_nullable === true || (schema.default_value ?? null) !== (before.schema.default_value ?? null)) {
      throw errors.invalidPayload(`field "${name}": the primary key is never null and its value is generated`);
    }
  }
  // the foreign key's ON DELETE SET NULL could no longer empty it: a delete of a related item would fail
  const setNull = def.relations.find((r) => r.collection === def.collection && r.field === name && r.schema?.on_delete === 'SET NULL');
  if (setNull && schema.is_nullable === false && before.schema.is_nullable !== false) {
    throw errors.invalidPayload(
      `field "${name}": its relation to "${setNull.related_collection}" empties it when the related item is deleted (schema.on_delete SET NULL): change that first (PATCH /relations/${def.collection}/${name})`,
    );
  }
  checkDecimal(after);
  if (!safeTypeChange(before, after)) {
    throw errors.invalidPayload(
      `field "${name}": ${sqlTypeOf(before)} → ${sqlTypeOf(after)} is not a change PostgreSQL can make safely (no rewrite, no value lost)`,
    );
  }
  checkDefault(after);
  return { kind: 'alter', before, after };
}

/** `DELETE /fields/:collection/:field` → the column to drop (not the primary key). */
export function planDropField(def: CollectionDef, name: string): SchemaChange {
  const field = fieldOf(def, name);
  if (!field) throw errors.invalidPayload(`field "${name}" does not exist in "${def.collection}"`);
  if (name === def.primaryKey) throw errors.invalidPayload(`field "${name}" is the primary key of "${def.collection}" and cannot be dropped`);
  const meta = def.meta ?? {};
  for (const k of ['sort_field', 'archive_field']) {
    if (meta[k] === name) throw errors.invalidPayload(`field "${name}" is the collection's meta.${k}: change it first`);
  }
  // the relation its key field holds goes with it (the foreign key goes with the column)
  return { kind: 'drop', field, relations: def.relations.filter((r) => r.collection === def.collection && r.field === name) };
}

/** `PATCH /collections/:name` → its meta merged into the stored one; sort and archive fields must exist. */
export function planCollectionMeta(def: CollectionDef, body: CollectionUpdateRequest): SchemaChange {
  const meta = { ...(def.meta ?? {}), ...(body.meta ?? {}) };
  for (const k of ['sort_field', 'archive_field'] as const) {
    const f = body.meta?.[k];
    if (typeof f === 'string' && !fieldOf(def, f)) throw errors.invalidPayload(`meta.${k}: field "${f}" does not exist in "${def.collection}"`);
  }
  return { kind: 'collection', meta };
}
