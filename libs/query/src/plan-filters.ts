import { errors } from '@vellum/errors';
import { col, isPlainObject, related, ROOT } from './plan-context';
import { operatorSql } from './plan-operator';
import { fieldOf, isNumericType, isStringType, type TableSchema } from './schema';
import type { Statement } from './statement';
import { escapeLike, SQL_CAST } from './values';

const MAX_FILTER_DEPTH = 12;
const MAX_FILTER_NODES = 500;

/**
 * A filter object on the table aliased `alias` (`key`: its relation path) → a condition. Field names are checked
 * against the schema (403 for unknown or concealed ones), relations joined, `_and` / `_or` nested, size bounded.
 */
export function filterSql(s: Statement, node: unknown, table: TableSchema, alias: string, key: string, depth: number): string {
  const { maxDepth } = s.ctx;
  if (++s.filterNodes > MAX_FILTER_NODES || depth > MAX_FILTER_DEPTH) throw errors.invalidQuery('The filter is too large.');
  if (!isPlainObject(node)) throw errors.invalidQuery('A filter must be an object.');
  const parts: string[] = [];
  for (const [k, v] of Object.entries(node)) {
    if (k === '_and' || k === '_or') {
      if (!Array.isArray(v)) throw errors.invalidQuery(`"${k}" needs an array.`);
      const subs = v.map((x) => filterSql(s, x, table, alias, key, depth + 1));
      if (subs.length === 0) continue;
      parts.push(`(${subs.join(k === '_and' ? ' AND ' : ' OR ')})`);
      continue;
    }
    if (k.startsWith('_')) throw errors.invalidQuery('Unknown operator at the field level.');
    const def = fieldOf(table, k);
    if (!def || def.concealed) throw errors.forbidden();
    if (!isPlainObject(v)) throw errors.invalidQuery('A field filter must be an object of operators.');
    const keys = Object.keys(v);
    const isRelational = def.relation !== undefined && keys.some((x) => !x.startsWith('_') || x === '_and' || x === '_or');
    if (isRelational) {
      if (depth >= maxDepth + MAX_FILTER_DEPTH) throw errors.invalidQuery('The filter nests too deep.');
      const k2 = key ? `${key}.${k}` : k;
      const ja = s.join(alias, k2, k, def);
      if (k2.split('.').length > maxDepth) throw errors.invalidQuery('The filter nests too deep.');
      parts.push(filterSql(s, v, related(s.ctx, def), ja, k2, depth + 1));
      continue;
    }
    if (keys.length === 0) throw errors.invalidQuery('A field filter needs an operator.');
    for (const op of keys) parts.push(operatorSql(s, k, def, `${alias}.${col(k, def)}`, op, v[op]));
  }
  if (parts.length === 0) return 'TRUE';
  return parts.length === 1 ? parts[0]! : `(${parts.join(' AND ')})`;
}

/** `search`: ILIKE on the root's searchable text fields, equality on its numeric ones when the term is a number. */
export function searchSql(s: Statement, term: string): string {
  if (term.includes('\u0000')) throw errors.invalidQuery('Invalid "search".');
  const parts: string[] = [];
  const isInt = /^-?\d{1,18}$/.test(term);
  const isNum = /^-?(\d{1,30}(\.\d{0,30})?|\.\d{1,30})$/.test(term);
  for (const [name, def] of Object.entries(s.ctx.root.fields)) {
    const searchable = def.searchable ?? (isStringType(def.type) || isNumericType(def.type));
    if (!searchable || def.concealed) continue;
    const expr = `${ROOT}.${col(name, def)}`;
    if (isStringType(def.type)) parts.push(`${expr} ILIKE ${s.params.add(`%${escapeLike(term)}%`, 'text')}`);
    else if ((def.type === 'integer' || def.type === 'bigInteger') && isInt) parts.push(`${expr} = ${s.params.add(term, 'int8')}`);
    else if ((def.type === 'float' || def.type === 'decimal') && isNum) parts.push(`${expr} = ${s.params.add(term, SQL_CAST[def.type])}`);
  }
  return parts.length ? `(${parts.join(' OR ')})` : 'FALSE';
}

/** Where the keyset cursor starts (plan-sort's `after`), for `whereSql`. */
interface CursorBound {
  after: string;
  desc: boolean;
}

/**
 * ` WHERE …` (or nothing): the root's row filter (permissions), then — `withFilter` — the query's filter and
 * search, then the cursor bound.
 */
export function whereSql(s: Statement, withFilter: boolean, cursor?: CursorBound, withRowFilter = true): string {
  const { opts, query, root, rootPk } = s.ctx;
  const parts: string[] = [];
  const rf = withRowFilter ? opts.rowFilter?.(root, ROOT, s.params) : null;
  if (rf) parts.push(`(${rf})`);
  if (withFilter && query.filter) {
    const f = filterSql(s, query.filter, root, ROOT, '', 0);
    if (f !== 'TRUE') parts.push(f);
  }
  if (withFilter && query.search) parts.push(searchSql(s, query.search));
  if (cursor) parts.push(`${ROOT}.${col(root.primaryKey, rootPk)} ${cursor.desc ? '<' : '>'} ${s.params.add(cursor.after, SQL_CAST[rootPk.type])}`);
  return parts.length ? ` WHERE ${parts.join(' AND ')}` : '';
}
