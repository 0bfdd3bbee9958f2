import { errors } from '@vellum/errors';
import { fieldOf, type CollectionDef } from './collection';
import { coerceValue } from './coerce-value';
import { permits } from './access-rules';

export const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A write payload → column values, checked in this order (its shape is the route schema's): unknown fields (400 INVALID_PAYLOAD),
 * fields the caller may not write (403 FORBIDDEN), then each value's type (400 FAILED_VALIDATION) and the required
 * fields (`meta.required`: present on create, never null; NOT NULL without a default: present on create).
 */
export function validateWrite(
  def: CollectionDef,
  payload: Record<string, unknown>,
  allowed: '*' | string[],
  mode: 'create' | 'update',
): Record<string, unknown> {
  const keys = Object.keys(payload);
  for (const k of keys) {
    if (!fieldOf(def, k)) throw errors.invalidPayload(`Field "${k}" does not exist in collection "${def.collection}"`);
  }
  for (const k of keys) if (!permits(allowed, k)) throw errors.forbidden();
  const values: Record<string, unknown> = {};
  for (const k of keys) {
    const field = fieldOf(def, k)!;
    if (k === def.primaryKey && payload[k] === null && mode === 'create') continue; // generated
    values[k] = coerceValue(field, payload[k]);
  }
  for (const f of def.fields) {
    // `meta.required` (Directus): a value on create, never null.
    if (f.field === def.primaryKey || f.meta?.required !== true) continue;
    if ((mode === 'create' && !(f.field in values)) || (f.field in values && values[f.field] === null)) {
      throw errors.failedValidation(f.field, 'required', `Value for field "${f.field}" is required.`);
    }
  }
  if (mode === 'create') {
    for (const f of def.fields) {
      if (f.field === def.primaryKey) continue;
      const required = f.schema.is_nullable === false && (f.schema.default_value === undefined || f.schema.default_value === null);
      if (required && !(f.field in values)) {
        throw errors.failedValidation(f.field, 'required', `Value for field "${f.field}" is required.`);
      }
    }
  }
  return values;
}

/** The value of the primary key for a key given in a URL or a body; undefined when it cannot be a key. */
export function primaryKeyValue(def: CollectionDef, raw: unknown): string | number | undefined {
  const pk = fieldOf(def, def.primaryKey)!;
  const s = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim() : undefined;
  if (s === undefined) return undefined;
  try {
    const v = coerceValue({ ...pk, schema: { ...pk.schema, is_nullable: false } }, s);
    return v as string | number;
  } catch {
    return undefined;
  }
}

/** A write of the item `key` whose payload names another primary key → 400 (the item's own key sent back is harmless). */
export function refuseKeyChange(def: CollectionDef, data: Record<string, unknown>, key: string | number): void {
  if (Object.hasOwn(data, def.primaryKey) && String(primaryKeyValue(def, data[def.primaryKey])) !== String(key)) {
    throw errors.invalidPayload(`The primary key "${def.primaryKey}" can't be changed`);
  }
}
