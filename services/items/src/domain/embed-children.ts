import { quoteIdent as q, type Plan, type PlanOptions, type Sql } from '@vellum/query';
import type { CollectionDef, FieldType } from './collection';
import { fieldOf } from './collection';
import type { AliasRead } from './read-children';
import { scopedPaths, splitAliasPaths } from './read-children';
import { permits } from './access-rules';
import { JSON_SAFE, TEXT_SAFE } from './json-safe-types';

// One-to-many children read in their parents' statement: each alias a subquery aggregating its children
// as JSON, so a list with `comments.*` is one statement and one round trip (the children's own plan, permissions
// and `deep` as when they are read by a second statement: read-children.ts).

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

/** A child list statement as a scalar subquery: its rows as a JSON array (null for none), parsed by pg. */
export const jsonAgg = (c: Sql): Sql => ({ text: `(SELECT json_agg("q") FROM (${c.text}) AS "q")`, values: c.values });

/**
 * A child list statement as a scalar subquery giving the JSON text its parent's alias field has in the answer
 * (`[]` for none): each child's object with the keys and values the child plan shapes (its key alone for an alias
 * asked without fields), less the parent's key field when not asked, cut by `deep._limit`/`_offset` — so the text
 * goes into the answer as it is. Undefined when a field's JSON from PostgreSQL could differ (TEXT_SAFE) or the plan
 * is not flat.
 */
export function childrenText(c: Sql, plan: Plan, a: AliasRead, child: CollectionDef, window: { limit?: number; offset: number }): Sql | undefined {
  const leaves = plan.flatLeaves;
  if (!leaves || leaves.some((l) => !TEXT_SAFE.has(l.type as FieldType))) return undefined;
  const cut = `${window.limit === undefined ? '' : ` LIMIT ${window.limit}`}${window.offset ? ` OFFSET ${window.offset}` : ''}`;
  let json = `row_to_json("o")::text`;
  let cols: string[];
  if (a.keysOnly) {
    const key = leaves.find((l) => l.field === child.primaryKey);
    if (!key) return undefined;
    json = `to_json("o"."k")::text`;
    cols = [`"q".${q(key.alias)} AS "k"`];
  } else {
    const hasFk = a.asked.includes('*') || a.asked.includes(a.fk);
    cols = leaves.filter((l) => hasFk || l.field !== a.fk).map((l) => `"q".${q(l.alias)} AS ${q(l.field)}`);
  }
  const from = `(SELECT ${cols.join(', ')} FROM (${c.text}) AS "q"${cut}) AS "o"`;
  // string_agg reads its ordered subquery as it comes, as json_agg does (withChildrenSql)
  return { text: `(SELECT COALESCE('[' || string_agg(${json}, ',') || ']', '[]') FROM ${from})`, values: c.values };
}

/**
 * The parents' list statement with each child list as a scalar subquery (`jsonAgg` or `childrenText`: a column
 * `$children<i>` per child statement). Both keep their order: the parents' rows come from their ordered subquery with
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
    cols += `, ${text} AS ${q(`$children${i}`)}`;
  });
  return { text: `SELECT ${PARENT}.*${cols} FROM (${parent.text}) AS ${PARENT}`, values };
}

/** The children of statement `i` of every parent row, in parent order then the children's order. */
export function embeddedRows(rows: Record<string, unknown>[], i: number): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const row of rows) for (const c of (row[`$children${i}`] as Record<string, unknown>[] | null) ?? []) out.push(c);
  return out;
}
