import { errors } from '@vellum/errors';
import { resolveDynamic, type ValueContext } from '@vellum/query';

type Item = Record<string, unknown>;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Numbers compare as numbers (a numeric string filter value against a number too), everything else as text. */
function compare(a: unknown, b: unknown): number {
  if (typeof a === 'number' || typeof b === 'number') {
    const x = Number(a);
    const y = Number(b);
    if (!Number.isNaN(x) && !Number.isNaN(y)) return x - y;
  }
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  const s = typeof a === 'string' ? a : JSON.stringify(a);
  const t = typeof b === 'string' ? b : b instanceof Date ? b.toISOString() : JSON.stringify(b);
  return s < t ? -1 : s > t ? 1 : 0;
}

const equal = (a: unknown, b: unknown) => a !== null && a !== undefined && b !== null && compare(a, b) === 0;
const listOf = (op: string, v: unknown): unknown[] => {
  const arr = Array.isArray(v) ? v : typeof v === 'string' ? v.split(',') : [v];
  if (arr.length === 0) throw errors.invalidQuery(`"${op}" needs a non-empty array.`);
  return arr;
};

const LIKE: Record<string, [negated: boolean, insensitive: boolean, test: (s: string, t: string) => boolean]> = {
  _contains: [false, false, (s, t) => s.includes(t)],
  _ncontains: [true, false, (s, t) => s.includes(t)],
  _icontains: [false, true, (s, t) => s.includes(t)],
  _starts_with: [false, false, (s, t) => s.startsWith(t)],
  _nstarts_with: [true, false, (s, t) => s.startsWith(t)],
  _istarts_with: [false, true, (s, t) => s.startsWith(t)],
  _nistarts_with: [true, true, (s, t) => s.startsWith(t)],
  _ends_with: [false, false, (s, t) => s.endsWith(t)],
  _nends_with: [true, false, (s, t) => s.endsWith(t)],
  _iends_with: [false, true, (s, t) => s.endsWith(t)],
  _niends_with: [true, true, (s, t) => s.endsWith(t)],
};

/** One operator on one value, with SQL's null rules: a comparison with a missing value is false. */
function test(op: string, value: unknown, arg: unknown): boolean {
  const v = value === undefined ? null : value;
  switch (op) {
    case '_eq':
      return equal(v, arg);
    case '_neq':
      return v !== null && arg !== null && !equal(v, arg);
    case '_lt':
      return v !== null && arg !== null && compare(v, arg) < 0;
    case '_lte':
      return v !== null && arg !== null && compare(v, arg) <= 0;
    case '_gt':
      return v !== null && arg !== null && compare(v, arg) > 0;
    case '_gte':
      return v !== null && arg !== null && compare(v, arg) >= 0;
    case '_in':
      return listOf(op, arg).some((x) => equal(v, x));
    case '_nin':
      return v !== null && !listOf(op, arg).some((x) => equal(v, x));
    case '_between':
    case '_nbetween': {
      const [lo, hi, ...rest] = listOf(op, arg);
      if (rest.length || hi === undefined) throw errors.invalidQuery(`"${op}" needs exactly two values.`);
      if (v === null) return false;
      const inside = compare(v, lo) >= 0 && compare(v, hi) <= 0;
      return op === '_between' ? inside : !inside;
    }
    case '_null':
      return (arg === true || arg === 'true') === (v === null);
    case '_nnull':
      return (arg === true || arg === 'true') === (v !== null);
    case '_empty':
      return (arg === true || arg === 'true') === (v === null || v === '');
    case '_nempty':
      return (arg === true || arg === 'true') === (v !== null && v !== '');
  }
  const like = LIKE[op];
  if (!like) throw errors.invalidQuery(`Unknown operator "${op}".`);
  if (v === null || typeof v !== 'string' || arg === null || arg === undefined) return false;
  const [negated, insensitive, fn] = like;
  const s = insensitive ? v.toLowerCase() : v;
  const t = insensitive ? String(arg).toLowerCase() : String(arg);
  return fn(s, t) !== negated;
}

/**
 * A filter of the query language (`{field: {_op: value}}`, `_and`/`_or`) evaluated on one item's JSON state, for
 * reads of past states that exist only as revisions. `check(field)` refuses a field the caller may not use (403).
 */
export function matchFilter(filter: unknown, item: Item, ctx: ValueContext, check: (field: string) => void): boolean {
  if (!isObject(filter)) throw errors.invalidQuery('A filter must be an object.');
  for (const [key, cond] of Object.entries(filter)) {
    if (key === '_and' || key === '_or') {
      if (!Array.isArray(cond)) throw errors.invalidQuery(`"${key}" needs an array.`);
      const results = cond.map((c) => matchFilter(c, item, ctx, check));
      if (key === '_and' ? !results.every(Boolean) : !results.some(Boolean)) return false;
      continue;
    }
    check(key);
    if (!isObject(cond)) throw errors.invalidQuery(`The filter on "${key}" must be an object of operators.`);
    for (const [op, raw] of Object.entries(cond)) {
      if (!op.startsWith('_')) throw errors.invalidQuery(`Relational filters ("${key}.${op}") are not supported on past states.`);
      const arg = Array.isArray(raw) ? raw.map((x) => resolveDynamic(x, ctx)) : resolveDynamic(raw, ctx);
      if (!test(op, item[key], arg)) return false;
    }
  }
  return true;
}

/** PostgreSQL's order: ascending puts nulls last, descending first. */
export function compareValues(a: unknown, b: unknown): number {
  const an = a === null || a === undefined;
  const bn = b === null || b === undefined;
  if (an || bn) return an === bn ? 0 : an ? 1 : -1;
  return compare(a, b);
}
