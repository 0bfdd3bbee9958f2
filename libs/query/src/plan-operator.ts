import { errors } from '@vellum/errors';
import { COMPARE_OPS, LIKE_OPS, OPERATORS_BY_TYPE } from './operators';
import type { FieldSchema } from './schema';
import type { Statement } from './statement';
import { escapeLike, resolveDynamic, SQL_CAST, typedValue } from './values';

/** `"_null": "true"` and the like → a boolean; 400 otherwise. */
function flag(op: string, value: unknown): boolean {
  if (value === true || value === false) return value;
  if (value === 1 || value === '1') return true;
  if (value === 0 || value === '0') return false;
  throw errors.invalidQuery(`"${op}" needs true or false.`);
}

/** The values of `_in`, `_between`, …: an array, a comma list or one number; scalars after dynamic resolution. */
function arrayValue(s: Statement, op: string, raw: unknown): unknown[] {
  let arr: unknown[];
  if (Array.isArray(raw)) arr = raw;
  else if (typeof raw === 'string') arr = raw.split(',');
  else if (typeof raw === 'number') arr = [raw];
  else throw errors.invalidQuery(`"${op}" needs an array.`);
  if (arr.length === 0 || arr.length > 10_000) throw errors.invalidQuery(`"${op}" needs a non-empty array.`);
  return arr.map((x) => {
    const r = resolveDynamic(x, s.ctx.valueCtx);
    if (r === null || r === undefined || Array.isArray(r) || (typeof r === 'object' && !(r instanceof Date)))
      throw errors.invalidQuery(`"${op}" needs scalar values.`);
    return r;
  });
}

/** One operator on a field's expression → a condition; every value a typed parameter, 400 for what cannot be one. */
export function operatorSql(s: Statement, field: string, def: FieldSchema, expr: string, op: string, raw: unknown): string {
  const type = def.type;
  if (!OPERATORS_BY_TYPE[type].includes(op)) throw errors.invalidQuery(`Operator not valid for field "${field}".`);
  const cast = SQL_CAST[type];
  const value = resolveDynamic(raw, s.ctx.valueCtx);
  const p = (v: unknown) => s.params.add(typedValue(field, type, v), cast);
  switch (op) {
    case '_eq':
    case '_neq': {
      if (value === '') throw errors.invalidQuery(`"${op}" needs a non-empty value.`);
      if (value === null) return `${expr} IS ${op === '_eq' ? '' : 'NOT '}NULL`;
      if (typeof value === 'object' && !(value instanceof Date)) throw errors.invalidQuery(`"${op}" needs a scalar value.`);
      return `${expr} ${op === '_eq' ? '=' : '<>'} ${p(value)}`;
    }
    case '_lt':
    case '_lte':
    case '_gt':
    case '_gte':
      if (value === null || value === '' || (typeof value === 'object' && !(value instanceof Date))) throw errors.invalidQuery(`"${op}" needs a value.`);
      return `${expr} ${COMPARE_OPS[op]} ${p(value)}`;
    case '_in':
    case '_nin': {
      const vals = arrayValue(s, op, raw).map((v) => typedValue(field, type, v));
      const list = s.params.add(vals, `${cast}[]`);
      return op === '_in' ? `${expr} = ANY(${list})` : `NOT (${expr} = ANY(${list}))`;
    }
    case '_between':
    case '_nbetween': {
      const vals = arrayValue(s, op, raw);
      if (vals.length !== 2) throw errors.invalidQuery(`"${op}" needs exactly two values.`);
      return `${expr} ${op === '_between' ? '' : 'NOT '}BETWEEN ${p(vals[0])} AND ${p(vals[1])}`;
    }
    case '_null':
      return `${expr} IS ${flag(op, value) ? '' : 'NOT '}NULL`;
    case '_nnull':
      return `${expr} IS ${flag(op, value) ? 'NOT ' : ''}NULL`;
    case '_empty':
      return flag(op, value) ? `(${expr} IS NULL OR ${expr} = '')` : `(${expr} IS NOT NULL AND ${expr} <> '')`;
    case '_nempty':
      return flag(op, value) ? `(${expr} IS NOT NULL AND ${expr} <> '')` : `(${expr} IS NULL OR ${expr} = '')`;
    default: {
      const like = LIKE_OPS[op];
      if (!like) throw errors.invalidQuery('Unknown operator.');
      if (value === null || value === '' || typeof value === 'object') throw errors.invalidQuery(`"${op}" needs a text value.`);
      const [neg, ci, pre, post] = like;
      const str = String(typedValue(field, 'string', value));
      const pattern = s.params.add(`${pre ? '%' : ''}${escapeLike(str)}${post ? '%' : ''}`, 'text');
      return `${expr} ${neg ? 'NOT ' : ''}${ci ? 'ILIKE' : 'LIKE'} ${pattern}`;
    }
  }
}
