import { planContext, type PlanContext } from './plan-context';
import { planFields, type TreeNode } from './plan-fields';
import type { PlanOptions } from './plan-options';
import { planSort, type OrderPlan } from './plan-sort';
import type { Query } from './query';
import type { QuerySchema } from './schema';

/** A query checked against the schema as far as it can be without building SQL. */
interface ValidatedQuery {
  ctx: PlanContext;
  /** `fields` as a tree of readable fields and relations, with column aliases. */
  tree: TreeNode;
  order: OrderPlan;
}

/**
 * The first stage after parsing: the root table, then `fields` (403 for unknown or concealed names, relation depth,
 * wildcards), then the order and the `after` cursor, in that order (the first problem is the error). Names in
 * `filter`, `sort`, `groupBy` and `aggregate` are checked by the stages that compile them, as they compile them.
 */
export function validateQuery(schema: QuerySchema, rootName: string, query: Query, opts: PlanOptions): ValidatedQuery {
  const ctx = planContext(schema, rootName, query, opts);
  const tree = planFields(ctx, query.fields);
  const order = planSort(ctx);
  return { ctx, tree, order };
}
