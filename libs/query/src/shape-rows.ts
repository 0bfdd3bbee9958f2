import type { Leaf, TreeNode } from './plan-fields';
import type { FieldType } from './schema';

/** A database value as the API gives it: safe integers as numbers, dates as `YYYY-MM-DD`, timestamps as ISO text. */
export function convert(type: FieldType, v: unknown): unknown {
  if (v === null || v === undefined) return null;
  switch (type) {
    case 'integer':
    case 'bigInteger':
    case 'float':
      return typeof v === 'string' && Number.isSafeInteger(Number(v)) ? Number(v) : typeof v === 'string' && type === 'float' ? Number(v) : v;
    case 'date':
      return v instanceof Date ? `${v.getFullYear()}-${String(v.getMonth() + 1).padStart(2, '0')}-${String(v.getDate()).padStart(2, '0')}` : v;
    case 'dateTime':
    case 'timestamp':
      return v instanceof Date ? v.toISOString() : v;
    default:
      return v;
  }
}

/** A JSON field read as text (PlanOptions.jsonText): kept as text unless its reducer changes it. */
function jsonValue(leaf: Leaf, text: string, row: Record<string, unknown>, wrap: (text: string) => unknown): unknown {
  const r = leaf.reducer;
  if (!r) return wrap(text);
  const withValues = leaf.withAliases!.map((a) => row[a]);
  return r.whole?.(...withValues) ? wrap(text) : r.map(JSON.parse(text), ...withValues);
}

/** One database row → the API object of a field tree (a relation whose key is null is null). */
export function shapeRow(node: TreeNode, row: Record<string, unknown>, jsonText: ((text: string) => unknown) | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const leaf of node.leaves.values()) {
    const v = row[leaf.alias];
    if (jsonText && leaf.def.type === 'json' && !leaf.def.concealed && typeof v === 'string') {
      out[leaf.field] = jsonValue(leaf, v, row, jsonText);
      continue;
    }
    const raw = leaf.reducer ? leaf.reducer.map(v, ...leaf.withAliases!.map((a) => row[a])) : v;
    out[leaf.field] = convert(leaf.def.type, raw);
  }
  for (const [name, c] of node.children) out[name] = row[c.pkAlias] === null || row[c.pkAlias] === undefined ? null : shapeRow(c.node, row, jsonText);
  return out;
}
