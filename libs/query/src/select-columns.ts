import { col, ROOT } from './plan-context';
import type { TreeNode } from './plan-fields';
import { CONCEALED, fieldOf, quoteIdent as q } from './schema';
import type { Statement } from './statement';

/** The SELECT list of a field tree: each leaf under its alias (projected, or read plainly for a reducer), relations joined. */
export function selectColumns(s: Statement, tree: TreeNode): string[] {
  const { jsonText, project } = s.ctx.opts;
  const cols: string[] = [];
  const walk = (node: TreeNode, alias: string, key: string, depth: number) => {
    for (const leaf of node.leaves.values()) {
      const expr = `${alias}.${col(leaf.field, leaf.def)}`;
      if (leaf.def.concealed) {
        cols.push(`CASE WHEN ${expr} IS NULL THEN NULL ELSE '${CONCEALED}' END AS ${q(leaf.alias)}`);
        continue;
      }
      const asText = jsonText && leaf.def.type === 'json' ? '::text' : '';
      if (leaf.reducer) {
        cols.push(`${expr}${asText} AS ${q(leaf.alias)}`);
        leaf.reducer.with.forEach((w, i) => cols.push(`${alias}.${col(w, fieldOf(node.table, w)!)} AS ${q(leaf.withAliases![i]!)}`));
        continue;
      }
      const projected = project ? project({ table: node.table, field: leaf.field, def: leaf.def, expr, alias, depth, params: s.params }) : expr;
      cols.push(`${asText ? `(${projected})::text` : projected} AS ${q(leaf.alias)}`);
    }
    for (const [name, c] of node.children) {
      const def = fieldOf(node.table, name)!;
      const k = key ? `${key}.${name}` : name;
      const ja = s.join(alias, k, name, def);
      cols.push(`${ja}.${col(c.node.table.primaryKey, c.node.table.fields[c.node.table.primaryKey]!)} AS ${q(c.pkAlias)}`);
      walk(c.node, ja, k, depth + 1);
    }
  };
  walk(tree, ROOT, '', 0);
  return cols;
}
