import type { CollectionField } from '../../data/collections';

/** A value as text in a table or diff. */
export function showValue(v: unknown): string {
  if (v === null || v === undefined) return '—';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

const NUMERIC = ['integer', 'bigInteger', 'float', 'decimal'];

/** The input kind of a field type. */
export function inputKind(type: string): 'checkbox' | 'number' | 'textarea' | 'date' | 'datetime-local' | 'text' {
  if (type === 'boolean') return 'checkbox';
  if (NUMERIC.includes(type)) return 'number';
  if (type === 'text' || type === 'json') return 'textarea';
  if (type === 'date') return 'date';
  if (type === 'dateTime' || type === 'timestamp') return 'datetime-local';
  return 'text';
}

/** A form's text back to the field's value (empty → null); a problem for a value of the wrong shape. */
export function parseInput(field: CollectionField, text: string | boolean): { value: unknown; problem?: string } {
  if (typeof text === 'boolean') return { value: text };
  if (text === '') return { value: null };
  if (NUMERIC.includes(field.type)) {
    const n = Number(text);
    return Number.isFinite(n) ? { value: field.type === 'decimal' || field.type === 'bigInteger' ? text : n } : { value: text, problem: 'Enter a number.' };
  }
  if (field.type === 'json') {
    try {
      return { value: JSON.parse(text) };
    } catch {
      return { value: text, problem: 'Enter valid JSON.' };
    }
  }
  return { value: text };
}

/** A field's value as the form shows it. */
export function toInput(field: CollectionField, v: unknown): string | boolean {
  if (field.type === 'boolean') return v === true;
  if (v === null || v === undefined) return '';
  if (field.type === 'json') return JSON.stringify(v, null, 2);
  if ((field.type === 'dateTime' || field.type === 'timestamp') && typeof v === 'string') return v.slice(0, 16);
  return String(v);
}
