import { errors } from '@vellum/errors';
import type { FieldDef } from './collection';

const INT = /^-?\d+$/;
const NUMERIC = /^-?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;
const DECIMAL = /^-?(\d+(\.\d*)?|\.\d+)$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** A NUL escape in JSON text: `\u0000` after an even number of backslashes (an odd run is an escaped backslash). */
const NUL_ESCAPE = /(?<!\\)(?:\\\\)*\\u0000/;
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}(:?\d{2})?)?$/i;
const INT8_MIN = -(2n ** 63n);
const INT8_MAX = 2n ** 63n - 1n;

function validDate(y: number, m: number, d: number): boolean {
  const t = new Date(Date.UTC(y, m - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
}

/** ISO date-time → a Date (an offset-less value is taken as UTC); undefined when invalid. */
function parseDateTime(v: string): { date: Date; hadOffset: boolean } | undefined {
  const m = DATE_TIME.exec(v);
  if (!m) return undefined;
  const [y, mo, d] = m[1].split('-').map(Number);
  if (!validDate(y, mo, d)) return undefined;
  const offset = m[5] ? (m[5].toUpperCase() === 'Z' ? 'Z' : m[5].length === 3 ? `${m[5]}:00` : m[5].replace(/^([+-]\d{2})(\d{2})$/, '$1:$2')) : 'Z';
  const ms = m[4] ? m[4].slice(1, 4).padEnd(3, '0') : '000';
  const date = new Date(`${m[1]}T${m[2]}${m[3] ? m[3].slice(0, 3) : ':00'}.${ms}${offset}`);
  if (Number.isNaN(date.getTime())) return undefined;
  return { date, hadOffset: Boolean(m[5]) };
}

/**
 * A value sent for `field` → the parameter to give PostgreSQL. Throws 400 FAILED_VALIDATION (extensions
 * `field`, `type` = the expected type, or `nnull` for a null in a non-nullable field).
 */
export function coerceValue(field: FieldDef, value: unknown): unknown {
  const fail = (type: string = field.type, why?: string) =>
    errors.failedValidation(field.field, type, `Value for field "${field.field}" ${why ?? `must be of type ${field.type}`}.`);
  if (value === null) {
    if (field.schema.is_nullable === false) throw fail('nnull', "can't be null");
    return null;
  }
  switch (field.type) {
    case 'integer': {
      const n = typeof value === 'string' && INT.test(value) ? Number(value) : value;
      if (typeof n !== 'number' || !Number.isInteger(n) || n < -2147483648 || n > 2147483647) throw fail();
      return n;
    }
    case 'bigInteger': {
      let b: bigint;
      if (typeof value === 'number' && Number.isSafeInteger(value)) b = BigInt(value);
      else if (typeof value === 'string' && INT.test(value)) b = BigInt(value);
      else throw fail();
      if (b < INT8_MIN || b > INT8_MAX) throw fail();
      return b.toString();
    }
    case 'float': {
      const n = typeof value === 'string' && NUMERIC.test(value.trim()) ? Number(value) : value;
      if (typeof n !== 'number' || !Number.isFinite(n)) throw fail();
      return n;
    }
    case 'decimal': {
      if (typeof value === 'number' && Number.isFinite(value)) return String(value);
      if (typeof value === 'string' && DECIMAL.test(value.trim())) return value.trim();
      throw fail();
    }
    case 'string':
    case 'text': {
      if (typeof value !== 'string') throw fail();
      // As the column (ddl.ts): varchar(max_length), 255 when unset; max_length null is a text column.
      const max = field.type === 'string' && field.schema.max_length !== null ? (field.schema.max_length ?? 255) : undefined;
      if (max !== undefined && [...value].length > max) throw fail('max_length', `is longer than ${max} characters`);
      if (value.includes('\u0000')) throw fail(field.type, 'must not contain NUL characters');
      return value;
    }
    case 'boolean':
      if (typeof value !== 'boolean') throw fail();
      return value;
    case 'uuid':
      if (typeof value !== 'string' || !UUID.test(value)) throw fail();
      return value.toLowerCase();
    case 'json': {
      // Serialised here: pg would turn a JS array into a PostgreSQL array literal.
      const text = JSON.stringify(value);
      // jsonb cannot hold NUL, which JSON.stringify writes as \u0000 (a backslash of the text itself doubles)
      if (text.includes('u0000') && NUL_ESCAPE.test(text)) throw fail(field.type, 'must not contain NUL characters');
      return text;
    }
    case 'date': {
      const m = typeof value === 'string' ? DATE.exec(value) : null;
      if (!m || !validDate(Number(m[1]), Number(m[2]), Number(m[3]))) throw fail();
      return value;
    }
    case 'dateTime': {
      const p = typeof value === 'string' ? parseDateTime(value) : undefined;
      if (!p) throw fail();
      // Stored without a time zone: a value with an offset is converted to UTC wall time.
      return p.date.toISOString().slice(0, 23);
    }
    case 'timestamp': {
      const p = typeof value === 'string' ? parseDateTime(value) : undefined;
      if (!p) throw fail();
      return p.date.toISOString();
    }
  }
}
