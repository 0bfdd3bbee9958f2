export {
  CONCEALED,
  concealed,
  defineSchema,
  fieldOf,
  quoteIdent,
  tableOf,
  unsearchable,
  type FieldType,
  type FieldSchema,
  type FieldSpec,
  type TableSchema,
  type QuerySchema,
} from './schema';
export { AGGREGATE_FNS, META_KEYS, QUERY_PARAMETERS, type AggregateFn, type MetaKey, type Query, type SortKey } from './query';
export { parseQuery, type ParseOptions } from './parse-query';
export { planQuery } from './plan-query';
export type { FieldReducer, Plan, PlanOptions, ProjectionContext } from './plan-options';
export type { Layout, LayoutMember } from './serialize-layout';
export type { RawMember } from './serialize-rows';
export { Params, type Sql } from './params';
export { OPERATORS_BY_TYPE, ALL_OPERATORS } from './operators';
export { nowValue, resolveDynamic, typedValue, escapeLike, SQL_CAST, type ValueContext } from './values';
