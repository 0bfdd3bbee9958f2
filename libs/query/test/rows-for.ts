import { planContext } from '../src/plan-context';
import { planFields, type TreeNode } from '../src/plan-fields';
import type { PlanOptions } from '../src/plan-options';
import { parseQuery } from '../src/parse-query';
import { schema } from './fixtures';

/** The field tree of `fields` (comma-separated) over the fixtures' revisions. */
export const tree = (fields: string, opts: PlanOptions = {}) => planFields(planContext(schema, 'revisions', parseQuery({ fields }), opts), fields.split(','));

/** Database-like values for every alias of a tree: row i gets a mix of kinds (nulls, big ids, JSON text, dates). */
export function rowsFor(t: TreeNode, n: number, jsonText: boolean): Record<string, unknown>[] {
  const rows: Record<string, unknown>[] = [];
  for (let i = 0; i < n; i++) {
    const row: Record<string, unknown> = {};
    const fill = (node: TreeNode, depth: number) => {
      for (const leaf of node.leaves.values()) {
        const t = leaf.def.type;
        const json = i % 3 === 0 ? null : { a: i, s: 'q"uote\\ \u2028 é', nested: [1, { b: null }] };
        row[leaf.alias] =
          t === 'json'
            ? jsonText && json !== null
              ? JSON.stringify(json, null, i % 2 ? 1 : 0)
              : json
            : t === 'bigInteger'
              ? i === 4
                ? '12345678901234567890'
                : String(i * 7 + depth)
              : t === 'timestamp'
                ? new Date(Date.UTC(2026, 0, 1 + i, 3, 4, 5))
                : i === 5
                  ? null
                  : `v${i} "x" \n ${leaf.field}`;
        for (const a of leaf.withAliases ?? []) row[a] = i % 2 ? 'c1' : 'all';
      }
      for (const c of node.children.values()) {
        row[c.pkAlias] = i % 4 === 1 ? null : String(i);
        fill(c.node, depth + 1);
      }
    };
    fill(t, 0);
    rows.push(row);
  }
  return rows;
}
