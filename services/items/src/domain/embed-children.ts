import { quoteIdent as q, type PlanOptions, type Sql } from '@vellum/query';
import type { CollectionDef, FieldType } from './collection';
import { fieldOf } from './collection';
import type { AliasRead } from './read-children';
import { scopedPaths, splitAliasPaths } from './read-children';
import { permits } from './access-rules';

// One-to-many children read in their parents' statement: each alias a subquery aggregating its children
// as JSON, so a list with `comments.*` is one statement and one round trip (the children's own plan, permissions
// and `deep` as when they are read by a second statement: read-children.ts).

/** Types whose JSON form (`to_json`) parses to what the items pool's text parsers give: other types are read apart. */
const JSON_SAFE = new Set<FieldType>(['integer', 'string', 'text', 'boolean', 'uuid', 'json']);

/** The parents' subquery alias: the children's row filter names its key column (`_k`, the list's key). */
const PARENT = '"$p"';

/**
 * Whether an alias's children can be read inside the parents' statement: plain fields of the child collection
 * (no path through a relation, no deeper alias, no many-to-any scoped path) of JSON-safe types only.
 */
export function embeddable(a: AliasRead, child: CollectionDef, readable: '*' | string[]): boolean {
  if (Object.keys(a.nested).length > 0 || a.asked.some((p) => p.includes('.') || p.includes(':'))) return false;
  if (!a.keysOnly && scopedPaths(child, a.asked)) return false;
  if (splitAliasPaths(child, a.asked).aliases.size > 0) return false;
  const names = a.keysOnly ? [child.primaryKey] : a.asked.includes('*') ? child.fields.map((f) => f.field) : a.asked;
  for (const name of [...names, a.fk, child.primaryKey]) {
    const f = fieldOf(child, name);
    // an unknown or unreadable field: the child's plan answers it (403) as it would alone
    if (!f) continue;
    if ((name === child.primaryKey || permits(readable, name)) && !JSON_SAFE.has(f.type)) return false;
  }
  return true;
}

/** The child plan's row filter: its rows of the current parent only (the root table; joined relations untouched). */
export const childOfParent =
  (fk: string): PlanOptions['rowFilter'] =>
  (_table, alias) =>
    alias === 'r' ? `r.${q(fk)} = ${PARENT}."_k"` : null;

/**
 * The parents' list statement with each child list as a scalar `json_agg` subquery (a column `$children<i>` per
 * child statement, null for none). Both keep their order: the parents' rows come from their ordered subquery with
 * nothing between that could reorder them, and each aggregate reads its ordered subquery as it comes (a window
 * function or a LATERAL join to number the rows cost PostgreSQL ten times the planning time, and twice the run time,
 * measured on the bench's list). The child statements' parameters are numbered after the parents'.
 */
export function withChildrenSql(parent: Sql, children: Sql[]): Sql {
  const values = [...parent.values];
  let cols = '';
  children.forEach((c, i) => {
    const shift = values.length;
    values.push(...c.values);
    const text = shift ? c.text.replace(/\$(\d+)/g, (_m, n: string) => `$${Number(n) + shift}`) : c.text;
    cols += `, (SELECT json_agg("q") FROM (${text}) AS "q") AS ${q(`$children${i}`)}`;
  });
  return { text: `SELECT ${PARENT}.*${cols} FROM (${parent.text}) AS ${PARENT}`, values };
}

/** The children of statement `i` of every parent row, in parent order then the children's order. */
export function embeddedRows(rows: Record<string, unknown>[], i: number): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const row of rows) for (const c of (row[`$children${i}`] as Record<string, unknown>[] | null) ?? []) out.push(c);
  return out;
}
