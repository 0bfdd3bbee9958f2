import type { TreeNode } from './plan-fields';
import { leafValue, leafWriter, type Row, type Slot } from './serialize-rows';
import { jsonString } from './json-string';

/**
 * How an answer lays out each object of a list page, member by member in its own order — a GraphQL selection
 * (`{ id collection activity { action } }`) over the fields the plan selected. `key` is the member's name in the
 * answer (an alias, or the field's name); a member is a leaf of the plan's tree (`field`) given `as`:
 * - `id`: GraphQL's ID — a string, or an integer as its digits in a string;
 * - `string`: GraphQL's String — a string, or a number or boolean as its text;
 * - `json`: the value as the API gives it (JSON read as text goes out as it is: `shapeRow` + `stringifyJson`);
 * a relation of the tree (`relation`, null when its key is), or a constant JSON text (`text`, e.g. `__typename`).
 * `nonNull`: a null there cannot be written (GraphQL's non-null: an error, which is the caller's to answer).
 */
export type Layout = readonly LayoutMember[];
export type LayoutMember =
  | { key: string; field: string; as: 'id' | 'string' | 'json'; nonNull?: boolean }
  | { key: string; relation: string; layout: Layout; nonNull?: boolean }
  | { key: string; text: string };

type Write = (row: Row) => string | undefined;

/** GraphQL's serialization of an ID or a String (graphql-js' own rules); undefined where it raises an error. */
function scalarText(as: 'id' | 'string', v: unknown): string | undefined {
  switch (typeof v) {
    case 'string':
      return jsonString(v);
    case 'number':
      if (as === 'id') return Number.isInteger(v) ? `"${v}"` : undefined;
      return Number.isFinite(v) ? `"${v}"` : undefined;
    case 'boolean':
      return as === 'string' ? (v ? '"true"' : '"false"') : undefined;
    default:
      return undefined;
  }
}

function memberWriter(node: TreeNode, m: LayoutMember, jsonText: boolean, slot: Slot): Write | undefined {
  if ('text' in m) return () => m.text;
  const nullText = m.nonNull ? undefined : 'null';
  if ('relation' in m) {
    const c = node.children.get(m.relation);
    const write = c && objectWriter(c.node, m.layout, jsonText, slot);
    if (!c || !write) return undefined;
    const at = slot(c.pkAlias) as number;
    return (row) => ((row as unknown[])[at] == null ? nullText : write(row));
  }
  const leaf = node.leaves.get(m.field);
  if (!leaf) return undefined;
  if (m.as === 'json') {
    const write = leafWriter(leaf, jsonText, slot);
    return (row) => {
      const t = write(row);
      return t === 'null' ? nullText : t;
    };
  }
  const value = leafValue(leaf, slot);
  const as = m.as;
  return (row) => {
    const v = value(row);
    return v === null || v === undefined ? nullText : scalarText(as, v);
  };
}

function objectWriter(node: TreeNode, layout: Layout, jsonText: boolean, slot: Slot): Write | undefined {
  const prefixes: string[] = [];
  const writes: Write[] = [];
  for (const m of layout) {
    const write = memberWriter(node, m, jsonText, slot);
    if (!write) return undefined;
    prefixes.push(`${prefixes.length ? ',' : '{'}${JSON.stringify(m.key)}:`);
    writes.push(write);
  }
  const n = writes.length;
  if (n === 0) return () => '{}';
  return (row) => {
    let s = '';
    for (let i = 0; i < n; i++) {
      const v = writes[i]!(row);
      if (v === undefined) return undefined;
      s += prefixes[i]! + v;
    }
    return s + '}';
  };
}

/**
 * The JSON text of a list page laid out by `layout` (rows read with `rowMode: 'array'` over `columns`), written
 * straight from the rows; the page is undefined when a value cannot be written as its member says (a null where
 * none may be, a value GraphQL would refuse). The writer is undefined when the layout names a field or relation the
 * tree does not select, or a column is not among `columns`.
 */
export function layoutRowsSerializer(
  tree: TreeNode,
  layout: Layout,
  jsonText: boolean,
  columns: readonly string[],
): ((rows: unknown[][]) => string | undefined) | undefined {
  const index = new Map(columns.map((name, i) => [name, i]));
  let missing = false;
  const write = objectWriter(tree, layout, jsonText, (alias) => index.get(alias) ?? ((missing = true), -1));
  if (!write || missing) return undefined;
  return (rows) => {
    let s = '[';
    for (let i = 0; i < rows.length; i++) {
      const t = write(rows[i]!);
      if (t === undefined) return undefined;
      s += i === 0 ? t : ',' + t;
    }
    return s + ']';
  };
}
