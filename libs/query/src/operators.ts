import type { FieldType } from './schema';

const STRING_OPS = [
  '_eq',
  '_neq',
  '_contains',
  '_ncontains',
  '_icontains',
  '_starts_with',
  '_nstarts_with',
  '_istarts_with',
  '_nistarts_with',
  '_ends_with',
  '_nends_with',
  '_iends_with',
  '_niends_with',
  '_in',
  '_nin',
  '_empty',
  '_nempty',
  '_null',
  '_nnull',
] as const;
const ORDERED_OPS = ['_eq', '_neq', '_lt', '_lte', '_gt', '_gte', '_between', '_nbetween', '_in', '_nin', '_null', '_nnull'] as const;

/** Operators allowed per field type (contract §5); anything else → 400 INVALID_QUERY. */
export const OPERATORS_BY_TYPE: Record<FieldType, readonly string[]> = {
  string: STRING_OPS,
  text: STRING_OPS,
  integer: ORDERED_OPS,
  bigInteger: ORDERED_OPS,
  float: ORDERED_OPS,
  decimal: ORDERED_OPS,
  date: ORDERED_OPS,
  dateTime: ORDERED_OPS,
  timestamp: ORDERED_OPS,
  uuid: ['_eq', '_neq', '_in', '_nin', '_null', '_nnull'],
  boolean: ['_eq', '_neq', '_null', '_nnull'],
  json: ['_null', '_nnull'],
};

export const ALL_OPERATORS = new Set<string>(Object.values(OPERATORS_BY_TYPE).flat());

/** LIKE operators: [negated, case-insensitive, prefix %, suffix %]. */
export const LIKE_OPS: Record<string, [boolean, boolean, boolean, boolean]> = {
  _contains: [false, false, true, true],
  _ncontains: [true, false, true, true],
  _icontains: [false, true, true, true],
  _starts_with: [false, false, false, true],
  _nstarts_with: [true, false, false, true],
  _istarts_with: [false, true, false, true],
  _nistarts_with: [true, true, false, true],
  _ends_with: [false, false, true, false],
  _nends_with: [true, false, true, false],
  _iends_with: [false, true, true, false],
  _niends_with: [true, true, true, false],
};

export const COMPARE_OPS: Record<string, string> = { _lt: '<', _lte: '<=', _gt: '>', _gte: '>=' };
