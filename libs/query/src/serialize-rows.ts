import type { Leaf, TreeNode } from './plan-fields';
import { convert } from './shape-rows';
import { jsonString } from './json-string';

/** A row as pg gives it: an object keyed by column alias, or (`rowMode: 'array'`) the values in column order. */
export type Row = Record<string, unknown> | unknown[];
/** Where a column alias is found in a row: the alias itself (objects) or its position (arrays). */
export type Slot = (alias: string) => string | number;

/** One member of an object: its `"name":` prefix and the JSON text of its value (undefined: the member is left out). */
interface Member {
  key: string;
  write: (row: Row) => string | undefined;
}

/** JSON text of a value as `JSON.stringify` gives it, with the common kinds (numbers, strings, null) direct. */
function valueText(v: unknown): string | undefined {
  if (v === null) return 'null';
  switch (typeof v) {
    case 'string':
      return jsonString(v);
    case 'number':
      return Number.isFinite(v) ? String(v) : 'null';
    case 'boolean':
      return v ? 'true' : 'false';
    default:
      return JSON.stringify(v);
  }
}

/** A leaf's writer: exactly what `shapeRow` puts there, as JSON text (JSON fields read as text go out as they are). */
export function leafWriter(leaf: Leaf, jsonText: boolean, slot: Slot): Member['write'] {
  const { reducer, def } = leaf;
  const at = slot(leaf.alias) as number; // a number or a string alike index the row
  const withAt = (leaf.withAliases ?? []).map(slot) as number[];
  const asText = jsonText && def.type === 'json' && !def.concealed;
  const withValues = (row: Row) => withAt.map((a) => (row as unknown[])[a]);
  const value = leafValue(leaf, slot);
  return (row) => {
    const v = (row as unknown[])[at];
    if (asText && typeof v === 'string') {
      if (!reducer) return v;
      const w = withValues(row);
      if (reducer.whole?.(...w)) return v;
      return reducer.mapText ? reducer.mapText(v, ...w) : valueText(reducer.map(JSON.parse(v), ...w));
    }
    return valueText(value(row));
  };
}

/** A leaf's value as `shapeRow` puts it there, for a field not read as JSON text. */
export function leafValue(leaf: Leaf, slot: Slot): (row: Row) => unknown {
  const { reducer, def } = leaf;
  const at = slot(leaf.alias) as number;
  const withAt = (leaf.withAliases ?? []).map(slot) as number[];
  const type = def.type;
  return (row) => {
    const v = (row as unknown[])[at];
    return convert(type, reducer ? reducer.map(v, ...withAt.map((a) => (row as unknown[])[a])) : v);
  };
}

/** A relation's writer: `null` when its key is null, else its object. */
function childWriter(node: TreeNode, pkAlias: string, jsonText: boolean, slot: Slot): Member['write'] {
  const write = nodeWriter(node, jsonText, slot);
  const at = slot(pkAlias) as number;
  return (row) => ((row as unknown[])[at] == null ? 'null' : write(row));
}

/** Keys JSON.stringify would not give in insertion order (array indices) or that shapeRow cannot set as own data. */
const unordered = (name: string) => name === '__proto__' || /^(0|[1-9]\d{0,9})$/.test(name);

/** A member set on each top-level object after shaping: its value the JSON text in `column` (SQL NULL: `null`). */
export interface RawMember {
  name: string;
  column: string;
}

function nodeWriter(node: TreeNode, jsonText: boolean, slot: Slot, raw: readonly RawMember[] = []): (row: Row) => string {
  // members in the order shapeRow's object gets its keys: leaves, then relations, then raw members (one named like
  // an earlier member takes its place, as an assignment to an existing key does)
  const members: Member[] = [];
  const at = new Map<string, number>();
  for (const leaf of node.leaves.values()) {
    at.set(leaf.field, members.length);
    members.push({ key: `${JSON.stringify(leaf.field)}:`, write: leafWriter(leaf, jsonText, slot) });
  }
  for (const [name, c] of node.children) {
    const m = { key: `${JSON.stringify(name)}:`, write: childWriter(c.node, c.pkAlias, jsonText, slot) };
    const i = at.get(name);
    if (i === undefined) at.set(name, members.push(m) - 1);
    else members[i] = m;
  }
  for (const r of raw) {
    const col = slot(r.column) as number;
    const m = { key: `${JSON.stringify(r.name)}:`, write: (row: Row) => ((row as unknown[])[col] as string | null) ?? 'null' };
    const i = at.get(r.name);
    if (i === undefined) at.set(r.name, members.push(m) - 1);
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
export function serializable(node: TreeNode): boolean {
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
  return pageWriter(nodeWriter(tree, jsonText, (alias) => alias));
}

/**
 * `rowsSerializer` for rows read with `rowMode: 'array'` (no object per row, no keyed stores: pg fills an array),
 * for the columns `columns` (the result's fields, in order); undefined as for `rowsSerializer`, or when a column
 * the tree needs is not among them. `raw`: members put on each row's object after it is shaped, as JSON text.
 */
export function arrayRowsSerializer(
  tree: TreeNode,
  jsonText: boolean,
  columns: readonly string[],
  raw: readonly RawMember[] = [],
): ((rows: unknown[][]) => string) | undefined {
  if (!serializable(tree) || raw.some((r) => unordered(r.name))) return undefined;
  const index = new Map(columns.map((name, i) => [name, i]));
  let missing = false;
  const write = nodeWriter(tree, jsonText, (alias) => index.get(alias) ?? ((missing = true), -1), raw);
  return missing ? undefined : pageWriter(write);
}

function pageWriter(write: (row: Row) => string): (rows: Row[]) => string {
  return (rows) => {
    let s = '[';
    for (let i = 0; i < rows.length; i++) s += i === 0 ? write(rows[i]!) : ',' + write(rows[i]!);
    return s + ']';
  };
}
