import { errors } from '@vellum/errors';
import { related, type PlanContext } from './plan-context';
import type { FieldReducer } from './plan-options';
import { fieldOf, type FieldSchema, type TableSchema } from './schema';

/** A selected field: its column alias (`c0`, `c1`, …) and, with PlanOptions.reduce, its reducer. */
export interface Leaf {
  field: string;
  def: FieldSchema;
  alias: string;
  reducer?: FieldReducer;
  /** Column aliases of the reducer's `with` fields. */
  withAliases?: string[];
}

/** A table in the selection: its selected fields and the relations selected through it (each with its key's alias). */
export interface TreeNode {
  table: TableSchema;
  leaves: Map<string, Leaf>;
  children: Map<string, { node: TreeNode; pkAlias: string }>;
}

const MAX_FIELDS = 200;

const newNode = (table: TableSchema): TreeNode => ({ table, leaves: new Map(), children: new Map() });

function child(ctx: PlanContext, node: TreeNode, name: string, def: FieldSchema): TreeNode {
  let c = node.children.get(name);
  if (!c) {
    c = { node: newNode(related(ctx, def)), pkAlias: '' };
    node.children.set(name, c);
  }
  return c.node;
}

/** `*` (expand = false) or `*.*` (expand = true: relations one level further, up to maxDepth). */
function addAll(ctx: PlanContext, node: TreeNode, expand: boolean, depth: number): void {
  for (const [name, def] of Object.entries(node.table.fields)) {
    if (expand && def.relation && depth < ctx.maxDepth) addAll(ctx, child(ctx, node, name, def), false, depth + 1);
    else node.leaves.set(name, { field: name, def, alias: '' });
  }
}

/** One `fields` path: a field (403 when unknown or concealed), a relation's field, or a wildcard. */
function addPath(ctx: PlanContext, node: TreeNode, segs: string[], depth: number): void {
  const [seg, ...rest] = segs;
  if (seg === '*') {
    if (rest.length === 0) return addAll(ctx, node, false, depth);
    if (rest.length === 1 && rest[0] === '*') return addAll(ctx, node, true, depth);
    throw errors.invalidQuery('Invalid wildcard in "fields".');
  }
  const def = fieldOf(node.table, seg!);
  if (!def || def.concealed) throw errors.forbidden();
  if (rest.length === 0) {
    node.leaves.set(seg!, { field: seg!, def, alias: '' });
    return;
  }
  if (!def.relation) throw errors.forbidden();
  if (depth >= ctx.maxDepth) throw errors.invalidQuery('"fields" nests too deep.');
  addPath(ctx, child(ctx, node, seg!, def), rest, depth + 1);
}

/** Column aliases in tree order; a field also selected as a relation is the relation. Reducers are asked here. */
function assign(ctx: PlanContext, node: TreeNode, depth: number, seq: { n: number }): void {
  for (const [name, leaf] of node.leaves) {
    if (node.children.has(name)) {
      node.leaves.delete(name);
      continue;
    }
    leaf.alias = `c${seq.n++}`;
    if (leaf.def.concealed) continue;
    const reducer = ctx.opts.reduce?.({ table: node.table, field: name, def: leaf.def, depth });
    if (!reducer) continue;
    for (const w of reducer.with) if (!fieldOf(node.table, w)) throw new Error(`planQuery: reducer reads unknown field ${node.table.name}.${w}`);
    leaf.reducer = reducer;
    leaf.withAliases = reducer.with.map(() => `c${seq.n++}`);
  }
  for (const c of node.children.values()) {
    c.pkAlias = `c${seq.n++}`;
    assign(ctx, c.node, depth + 1, seq);
  }
}

/** `fields` → the tree of selected fields and relations, with deterministic column aliases. */
export function planFields(ctx: PlanContext, fields: string[]): TreeNode {
  const tree = newNode(ctx.root);
  if (fields.length > MAX_FIELDS) throw errors.invalidQuery('Too many fields.');
  for (const path of fields) {
    const segs = path.split('.');
    if (segs.some((s) => s === '')) throw errors.invalidQuery('Invalid field path.');
    addPath(ctx, tree, segs, 0);
  }
  assign(ctx, tree, 0, { n: 0 });
  return tree;
}
