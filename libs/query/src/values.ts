import { errors } from '@vellum/errors';
import type { FieldType } from './schema';

export interface ValueContext {
  now: Date;
  user: string | null;
  role: string | null;
}

const UNIT_MS: Record<string, number> = {
  millisecond: 1,
  second: 1000,
  minute: 60_000,
  hour: 3_600_000,
  day: 86_400_000,
  week: 604_800_000,
};

/** `$NOW`, `$NOW(-7 days)`, `$NOW(+1 month)` → a Date; undefined when not a $NOW expression. */
export function nowValue(text: string, now: Date): Date | undefined {
  if (text === '$NOW') return new Date(now.getTime());
  if (!text.startsWith('$NOW(')) return undefined;
  const m = /^\$NOW\(\s*([+-]?)\s*(\d{1,9})\s*([a-z]+?)s?\s*\)$/i.exec(text);
  if (!m) throw errors.invalidQuery('Invalid $NOW adjustment.');
  const sign = m[1] === '-' ? -1 : 1;
  const n = Number(m[2]) * sign;
  const unit = m[3]!.toLowerCase();
  const d = new Date(now.getTime());
  if (unit === 'month') d.setUTCMonth(d.getUTCMonth() + n);
  else if (unit === 'year') d.setUTCFullYear(d.getUTCFullYear() + n);
  else if (Object.hasOwn(UNIT_MS, unit)) d.setTime(d.getTime() + n * UNIT_MS[unit]!);
  else throw errors.invalidQuery('Invalid $NOW unit.');
  if (Number.isNaN(d.getTime())) throw errors.invalidQuery('Invalid $NOW adjustment.');
  return d;
}

/** The dynamic variables and the "true"/"false"/"null" strings. */
export function resolveDynamic(v: unknown, ctx: ValueContext): unknown {
  if (typeof v !== 'string') return v;
  if (v === 'null') return null;
  if (v === 'true') return true;
  if (v === 'false') return false;
  if (v === '$CURRENT_USER') return ctx.user;
  if (v === '$CURRENT_ROLE') return ctx.role;
  return nowValue(v, ctx.now) ?? v;
}

const INT = /^-?\d{1,19}$/;
const INT8_MAX = 9223372036854775807n;
const NUM = /^-?(\d{1,40}(\.\d{0,40})?|\.\d{1,40})([eE][+-]?\d{1,3})?$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?)?(Z|[+-]\d{2}(:?\d{2})?)?$/i;

/** The PostgreSQL cast for a parameter compared with a field of this type. */
export const SQL_CAST: Record<FieldType, string> = {
  integer: 'int8',
  bigInteger: 'int8',
  float: 'float8',
  decimal: 'numeric',
  string: 'text',
  text: 'text',
  boolean: 'bool',
  uuid: 'uuid',
  json: 'jsonb',
  date: 'date',
  dateTime: 'timestamptz',
  timestamp: 'timestamptz',
};

const bad = (field: string, type: FieldType) => errors.invalidQuery(`Invalid ${type} value for "${field}".`);

/**
 * A value (after dynamic resolution) as the parameter to send for a field of `type`; throws 400 when it cannot
 * be one, so PostgreSQL never sees a value it would reject. Never returns null (callers handle null first).
 */
export function typedValue(field: string, type: FieldType, v: unknown): string | number | boolean {
  switch (type) {
    case 'integer':
    case 'bigInteger': {
      const s = typeof v === 'number' ? (Number.isSafeInteger(v) ? String(v) : '') : typeof v === 'string' ? v.trim() : '';
      if (!INT.test(s)) throw bad(field, type);
      const b = BigInt(s);
      if (b > INT8_MAX || b < -INT8_MAX - 1n) throw bad(field, type);
      return s;
    }
    case 'float':
    case 'decimal': {
      if (typeof v === 'number' && Number.isFinite(v)) return v;
      if (typeof v === 'string' && NUM.test(v.trim())) {
        if (type === 'float' && !Number.isFinite(Number(v))) throw bad(field, type);
        return v.trim();
      }
      throw bad(field, type);
    }
    case 'string':
    case 'text': {
      const s = typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined;
      if (s === undefined || s.includes('\u0000') || s.length > 10_000) throw bad(field, type);
      return s;
    }
    case 'boolean':
      if (typeof v === 'boolean') return v;
      if (v === 1 || v === '1') return true;
      if (v === 0 || v === '0') return false;
      throw bad(field, type);
    case 'uuid':
      if (typeof v === 'string' && UUID.test(v)) return v.toLowerCase();
      throw bad(field, type);
    case 'date':
    case 'dateTime':
    case 'timestamp': {
      let d: Date | undefined;
      if (v instanceof Date) d = v;
      else if (typeof v === 'string' && DATE_TIME.test(v.trim())) d = new Date(v.trim());
      else if (typeof v === 'number' && Number.isFinite(v)) d = new Date(v);
      if (!d || Number.isNaN(d.getTime()) || d.getUTCFullYear() < 1 || d.getUTCFullYear() > 9999) throw bad(field, type);
      return type === 'date' ? d.toISOString().slice(0, 10) : d.toISOString();
    }
    case 'json':
      throw bad(field, type);
  }
}

/** `%`, `_` and `\` escaped for LIKE (PostgreSQL's default escape character is the backslash). */
export const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
