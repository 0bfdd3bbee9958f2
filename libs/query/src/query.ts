export type AggregateFn = 'count' | 'countDistinct' | 'min' | 'max' | 'sum' | 'avg';
export const AGGREGATE_FNS: readonly AggregateFn[] = ['count', 'countDistinct', 'min', 'max', 'sum', 'avg'];

export type MetaKey = 'total_count' | 'filter_count';
export const META_KEYS: readonly MetaKey[] = ['total_count', 'filter_count'];

/** The query language's parameters (a SEARCH body's `query` has no other keys). */
export const QUERY_PARAMETERS = ['fields', 'filter', 'search', 'sort', 'limit', 'offset', 'page', 'meta', 'aggregate', 'groupBy', 'after'] as const;

export interface SortKey {
  path: string;
  desc: boolean;
}

/** A parsed (not yet validated against a schema) query. */
export interface Query {
  /** Field paths; default ['*']. */
  fields: string[];
  /** -1 = all (capped by the plan's limitMax). */
  limit: number;
  offset: number;
  /** null = default order (primary key ascending). */
  sort: SortKey[] | null;
  random: boolean;
  /** A plain object (validated by the planner). */
  filter: Record<string, unknown> | null;
  search: string | null;
  meta: MetaKey[];
  aggregate: Partial<Record<AggregateFn, string[]>> | null;
  groupBy: string[];
  /** Opaque keyset cursor (addition). */
  after: string | null;
}
