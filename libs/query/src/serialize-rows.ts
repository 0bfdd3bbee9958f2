import type { Leaf, TreeNode } from './plan-fields';
import { convert } from './shape-rows';

/** One member of an object: its `"name":` prefix and the JSON text of its value (undefined: the member is left out). */
interface Member {
  key: string;
  write: (row: Record<string, unknown>) => string | undefined;
}

/** JSON text of a value as `JSON.stringify` gives it, with the common kinds (numbers, strings, null) direct. */
function valueText(v: unknown): string | undefined {
  if (v === null) return 'null';
  switch (typeof v) {
    case 'string':
      return JSON.stringify(v);
    case 'number':
      return Number.isFinite(v) ? String(v) : 'null';
    case 'boolean':
      return v ? 'true' : 'false';
    default:
      return JSON.stringify(v);
  }
}

/** A leaf's writer: exactly what `shapeRow` puts there, as JSON text (JSON fields read as text go out as they are). */
function leafWriter(leaf: Leaf, jsonText: boolean): Member['write'] {
  const { alias, reducer, withAliases, def } = leaf;
  const type = def.type;
  const asText = jsonText && type === 'json' && !def.concealed;
  const withValues = (row: Record<string, unknown>) => withAliases!.map((a) => row[a]);
  return (row) => {
    const v = row[alias];
    if (asText && typeof v === 'string') {
      if (!reducer) return v;
      const w = withValues(row);
      if (reducer.whole?.(...w)) return v;
      return reducer.mapText ? reducer.mapText(v, ...w) : valueText(reducer.map(JSON.parse(v), ...w));
    }
    return valueText(convert(type, reducer ? reducer.map(v, ...withValues(row)) : v));
  };
}

/** A relation's writer: `null` when its key is null, else its object. */
function childWriter(node: TreeNode, pkAlias: string, jsonText: boolean): Member['write'] {
  const write = nodeWriter(node, jsonText);
  return (row) => (row[pkAlias] === null || row[pkAlias] === undefined ? 'null' : write(row));
}

/** Keys JSON.stringify would not give in insertion order (array indices) or that shapeRow cannot set as own data. */
const unordered = (name: string) => name === '__proto__' || /^(0|[1-9]\d{0,9})$/.test(name);

function nodeWriter(node: TreeNode, jsonText: boolean): (row: Record<string, unknown>) => string {
  // members in the order shapeRow's object gets its keys: leaves, then relations (a relation named like a leaf
  // takes the leaf's place, as an assignment to an existing key does)
  const members: Member[] = [];
  const at = new Map<string, number>();
  for (const leaf of node.leaves.values()) {
    at.set(leaf.field, members.length);
    members.push({ key: `${JSON.stringify(leaf.field)}:`, write: leafWriter(leaf, jsonText) });
  }
  for (const [name, c] of node.children) {
    const m = { key: `${JSON.stringify(name)}:`, write: childWriter(c.node, c.pkAlias, jsonText) };
    const i = at.get(name);
    if (i === undefined) members.push(m);
    else members[i] = m;
  }
  const n = members.length;
  return (row) => {
    let s = '{';
    let first = true;
    for (let i = 0; i < n; i++) {
      const m = members[i]!;
      const v = m.write(row);
      if (v === undefined) continue;
      s += first ? m.key + v : ',' + m.key + v;
      first = false;
    }
    return s + '}';
  };
}

/** True when `serializeRows` can write this tree (every key in insertion order, at every level). */
function serializable(node: TreeNode): boolean {
  for (const leaf of node.leaves.values()) if (unordered(leaf.field)) return false;
  for (const [name, c] of node.children) if (unordered(name) || !serializable(c.node)) return false;
  return true;
}

/**
 * The JSON text of `rows.map((row) => shapeRow(tree, row, jsonText))` — JSON fields read as text spliced in as they
 * are — written straight from the database rows: no API objects, no placeholders. Compiled once per tree; undefined
 * when the tree has keys JSON would order differently (the caller shapes and stringifies instead).
 */
export function rowsSerializer(tree: TreeNode, jsonText: boolean): ((rows: Record<string, unknown>[]) => string) | undefined {
  if (!serializable(tree)) return undefined;
  const write = nodeWriter(tree, jsonText);
  return (rows) => {
    let s = '[';
    for (let i = 0; i < rows.length; i++) s += i === 0 ? write(rows[i]!) : ',' + write(rows[i]!);
    return s + ']';
  };
}
