import { quoteIdent as q, type PlanOptions, type Sql } from '@vellum/query';
import type { CollectionDef, FieldType } from './collection';
import { fieldOf } from './collection';
import type { AliasRead } from './read-children';
import { scopedPaths, splitAliasPaths } from './read-children';
import { permits } from './access-rules';

// One-to-many children read in their parents' statement: each alias a LATERAL subquery aggregating its children
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
 * The parents' list statement with each child list as a LATERAL `json_agg` in the children's order (a column
 * `$children<i>` per child statement, null for none), the parents in their own order. The child statements'
 * parameters are numbered after the parents'.
 */
export function withChildrenSql(parent: Sql, children: Sql[]): Sql {
  const values = [...parent.values];
  let laterals = '';
  let cols = '';
  children.forEach((c, i) => {
    const shift = values.length;
    values.push(...c.values);
    const text = shift ? c.text.replace(/\$(\d+)/g, (_m, n: string) => `$${Number(n) + shift}`) : c.text;
    const l = q(`$l${i}`);
    laterals +=
      ` LEFT JOIN LATERAL (SELECT json_agg(to_json("e") ORDER BY "e"."$n") AS "j"` +
      ` FROM (SELECT "q".*, row_number() OVER () AS "$n" FROM (${text}) AS "q") AS "e") AS ${l} ON true`;
    cols += `, ${l}."j" AS ${q(`$children${i}`)}`;
  });
  return {
    text: `SELECT ${PARENT}.*${cols} FROM (SELECT "s".*, row_number() OVER () AS "$n" FROM (${parent.text}) AS "s") AS ${PARENT}${laterals} ORDER BY ${PARENT}."$n"`,
    values,
  };
}

/** The children of statement `i` of every parent row, in parent order then the children's order. */
export function embeddedRows(rows: Record<string, unknown>[], i: number): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const row of rows) for (const c of (row[`$children${i}`] as Record<string, unknown>[] | null) ?? []) out.push(c);
  return out;
}
