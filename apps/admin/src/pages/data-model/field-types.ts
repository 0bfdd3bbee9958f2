import type { Collection, CollectionField } from '../../data/collections';
import { parseInput } from '../content/values';

/** The field types a collection may declare (the API's list). */
export const FIELD_TYPES = ['string', 'text', 'integer', 'bigInteger', 'float', 'decimal', 'boolean', 'uuid', 'json', 'date', 'dateTime', 'timestamp'];

/** The type a field needs to hold a key of this collection (its primary key's type). */
export function keyTypeOf(c: Collection): string {
  return c.fields.find((f) => f.field === c.primary_key)?.type ?? 'integer';
}

/** Fields of `c` that can hold a key of `related` (same type as its primary key), apart from `c`'s own key. */
export function keyFieldsFor(c: Collection, related: Collection | undefined): CollectionField[] {
  const type = related ? keyTypeOf(related) : undefined;
  return c.fields.filter((f) => f.field !== c.primary_key && (!type || f.type === type));
}

/** A default typed as text → the field's value (empty: no default); a problem for text the type cannot hold. */
export function parseDefault(type: string, text: string): { value: unknown; problem?: string } {
  if (type === 'boolean')
    return text === '' ? { value: null } : text === 'true' || text === 'false' ? { value: text === 'true' } : { value: text, problem: 'Enter true or false.' };
  return parseInput({ field: 'default', type }, text);
}

/** A stored default as the form shows it. */
export const defaultText = (v: unknown) => (v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));
