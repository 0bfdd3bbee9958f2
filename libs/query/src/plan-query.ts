import { listSql, oneSql } from './build-sql';
import { planAggregate } from './plan-aggregate';
import { countSql } from './plan-meta';
import type { Plan, PlanOptions } from './plan-options';
import { nextCursor } from './plan-sort';
import type { Query } from './query';
import type { FieldType, QuerySchema } from './schema';
import { arrayRowsSerializer, rowsSerializer, serializable, type RawMember } from './serialize-rows';
import type { TreeNode } from './plan-fields';
import { shapeRow } from './shape-rows';
import { layoutRowsSerializer, type Layout } from './serialize-layout';
import { validateQuery } from './validate-query';

export type { FieldReducer, Plan, PlanOptions, ProjectionContext } from './plan-options';

/**
 * Validate a parsed query against the schema and plan it into parameterised SQL. The pipeline (after parseQuery):
 * validate-query (table, fields → tree, order) → plan-aggregate for `aggregate`/`groupBy`, else the list —
 * build-sql (select-columns, plan-filters, plan-sort, plan-paging), plan-meta (counts), shape-rows. Every statement
 * is built once here, so an invalid query fails now (400/403), not when it runs.
 */
export function planQuery(schema: QuerySchema, rootName: string, query: Query, opts: PlanOptions = {}): Plan {
  const { ctx, tree, order } = validateQuery(schema, rootName, query, opts);
  if (query.aggregate || query.groupBy.length > 0) return planAggregate(ctx);
  listSql(ctx, tree, order); // validates now
  countSql(ctx, 'filter');
  const jsonText = opts.jsonText;
  let serialize: ((rows: Record<string, unknown>[]) => string) | undefined;
  let arrays: { columns: string[]; raw?: readonly RawMember[]; write: ((rows: unknown[][]) => string) | undefined } | undefined;
  const layouts = new WeakMap<Layout, { columns: string[]; write: ((rows: unknown[][]) => string | undefined) | undefined }>();
  return {
    kind: 'list',
    query,
    keyset: order.keyset,
    list: () => listSql(ctx, tree, order),
    count: (which) => countSql(ctx, which),
    one: (id) => oneSql(ctx, tree, id),
    shape: (rows) => rows.map((row) => shapeRow(tree, row, jsonText)),
    // compiled on first use (a cached plan keeps it); a tree it cannot write: shaped, JSON text parsed, stringified
    serialize: (rows) =>
      (serialize ??=
        rowsSerializer(tree, jsonText !== undefined) ??
        ((r) => JSON.stringify(r.map((row) => shapeRow(tree, row, jsonText && ((t: string) => JSON.parse(t) as unknown))))))(rows),
    // only for a tree the writer can write (else rows are read as objects, shaped and stringified); compiled for
    // the first result's columns (a plan's statement always gives the same ones: checked)
    serializeArrays: !serializable(tree)
      ? undefined
      : (rows, fields, raw) => {
          if (!arrays || arrays.raw !== raw || !sameColumns(arrays.columns, fields)) {
            const columns = fields.map((f) => f.name);
            arrays = { columns, raw, write: arrayRowsSerializer(tree, jsonText !== undefined, columns, raw) };
          }
          return arrays.write?.(rows);
        },
    serializeLayout: (rows, fields, layout) => {
      let l = layouts.get(layout);
      if (!l || !sameColumns(l.columns, fields)) {
        const columns = fields.map((f) => f.name);
        layouts.set(layout, (l = { columns, write: layoutRowsSerializer(tree, layout, jsonText !== undefined, columns) }));
      }
      return l.write?.(rows);
    },
    flatLeaves: flatLeaves(tree),
    nextCursor: (rows) => nextCursor(order, query.limit, rows),
  };
}

function sameColumns(columns: readonly string[], fields: readonly { name: string }[]): boolean {
  if (columns.length !== fields.length) return false;
  for (let i = 0; i < columns.length; i++) if (columns[i] !== fields[i]!.name) return false;
  return true;
}

/** Plan.flatLeaves: the root's leaves when the tree is only those, each written as read. */
function flatLeaves(tree: TreeNode): Plan['flatLeaves'] {
  if (tree.children.size > 0) return undefined;
  const out: { field: string; alias: string; type: FieldType }[] = [];
  for (const l of tree.leaves.values()) {
    if (l.reducer || l.def.concealed) return undefined;
    out.push({ field: l.field, alias: l.alias, type: l.def.type });
  }
  return out;
}
