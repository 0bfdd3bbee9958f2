import { errors } from '@vellum/errors';
import { COMPARE_OPS, LIKE_OPS, OPERATORS_BY_TYPE } from './operators';
import { Params, type Sql } from './params';
import type { AggregateFn, Query } from './query';
import {
  CONCEALED,
  fieldOf,
  isDateType,
  isNumericType,
  isStringType,
  quoteIdent as q,
  type FieldSchema,
  type FieldType,
  type QuerySchema,
  type TableSchema,
} from './schema';
import { escapeLike, resolveDynamic, SQL_CAST, typedValue, type ValueContext } from './values';

export interface ProjectionContext {
  table: TableSchema;
  field: string;
  def: FieldSchema;
  /** The plain column expression, e.g. `r."data"`. */
  expr: string;
  /** The table alias in this statement. */
  alias: string;
  /** 0 for the root table, 1 for a relation of it, … */
  depth: number;
  params: Params;
}

/** Reduces a selected field's value in Node, after the SQL (see PlanOptions.reduce). */
export interface FieldReducer {
  /** Other fields of the same row it reads (selected as extra columns). */
  with: string[];
  /** The API value from the database value and the `with` fields' values, in order. */
  map(value: unknown, ...withValues: unknown[]): unknown;
  /** True when the value passes whole for these `with` values (lets `jsonText` keep it as text, unparsed). */
  whole?(...withValues: unknown[]): boolean;
}

export interface PlanOptions {
  now?: Date;
  user?: string | null;
  role?: string | null;
  /**
   * Extra row condition (permissions) for a table: applied to the root in WHERE and to every joined relation in
   * its ON clause (an invisible related row looks like no row). Add values with `params.add`.
   */
  rowFilter?: (table: TableSchema, alias: string, params: Params) => string | null;
  /**
   * Rewrite a field's value expression (e.g. reduce a JSON column to the readable keys): applied to selected fields,
   * `groupBy` fields and sort keys, so no group or order exposes more than the selected value would.
   */
  project?: (ctx: ProjectionContext) => string;
  /**
   * Reduce selected values in Node instead of SQL (cheaper for a page of rows than a per-row SQL expression):
   * a selected field with a reducer is read plainly, with its `with` fields, and `shape` maps it. `project` still
   * applies where SQL computes with the value (`groupBy`, `sort`); the two must agree.
   */
  reduce?: (ctx: { table: TableSchema; field: string; def: FieldSchema; depth: number }) => FieldReducer | undefined;
  /**
   * JSON fields as text: selected with `::text` and shaped as `jsonText(text)` (e.g. a raw-JSON value the response
   * splices in as is) instead of parsed objects. A reducer that does not pass a value whole gets it parsed.
   */
  jsonText?: (text: string) => unknown;
  /** From this offset on, lists use an index-only deferred join (default 1000). */
  deferredJoinOffset?: number;
  /** Max relation depth in a path (default 3). */
  maxDepth?: number;
  /**
   * The exact number of rows matching (row filter + filter + search), when the caller knows it without a scan
   * (counters). A deep offset past the middle is then read from the other end of the index (fewer entries).
   */
  totalHint?: number;
  /**
   * Where a deep page starts, when the caller can tell without reading the rows before it (e.g. counters per
   * primary-key range). Used for lists ordered by the primary key alone, from `deferredJoinOffset` on, without
   * `after`: SQL yielding at most one row `("lo", "skip")` — the page is the matching rows with primary key ≥ "lo"
   * (≤ "lo" when descending), skipping "skip" of them; no row = past the end. It runs in the list's statement (one
   * snapshot), so counters kept in the writers' transactions give exactly the plain OFFSET page. The caller must
   * only offer it when its counters count exactly what the list's WHERE matches. Null = not for this query.
   */
  seek?: (ctx: { desc: boolean; offset: number; params: Params }) => string | null;
}

export interface Plan {
  kind: 'list' | 'aggregate';
  query: Query;
  /** The rows (or groups) of the query. */
  list(): Sql;
  /** One row by primary key (with the row filter); throws 403 for an id that cannot be a key. */
  one(id: unknown): Sql;
  /** `SELECT count(*) AS n`: total = row filter only; filter = with filter and search. */
  count(which: 'total' | 'filter'): Sql;
  /** Database rows → API objects (nested relations, typed values). */
  shape(rows: Record<string, unknown>[]): Record<string, unknown>[];
  /** An opaque `after` cursor for the next page (keyset), when the order is by primary key only; else null. */
  nextCursor(rows: Record<string, unknown>[]): string | null;
  /** True when the order is by primary key only (the keyset fast path applies). */
  keyset: boolean;
}

interface Leaf {
  field: string;
  def: FieldSchema;
  alias: string;
  reducer?: FieldReducer;
  /** Column aliases of the reducer's `with` fields. */
  withAliases?: string[];
}
interface TreeNode {
  table: TableSchema;
  leaves: Map<string, Leaf>;
  children: Map<string, { node: TreeNode; pkAlias: string }>;
}

const ROOT = 'r';
const MAX_FILTER_DEPTH = 12;
const MAX_FILTER_NODES = 500;
const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const col = (name: string, def: FieldSchema) => q(def.column ?? name);
const forbidden = () => errors.forbidden();

function convert(type: FieldType, v: unknown): unknown {
  if (v === null || v === undefined) return null;
  switch (type) {
    case 'integer':
    case 'bigInteger':
    case 'float':
      return typeof v === 'string' && Number.isSafeInteger(Number(v)) ? Number(v) : typeof v === 'string' && type === 'float' ? Number(v) : v;
    case 'date':
      return v instanceof Date
        ? `${v.getFullYear()}-${String(v.getMonth() + 1).padStart(2, '0')}-${String(v.getDate()).padStart(2, '0')}`
        : v;
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

/** Validate a parsed query against the schema and plan it into parameterised SQL. */
export function planQuery(schema: QuerySchema, rootName: string, query: Query, opts: PlanOptions = {}): Plan {
  if (!Object.hasOwn(schema, rootName)) throw new Error(`planQuery: unknown table ${rootName}`);
  const root = schema[rootName]!;
  const rootPk = root.fields[root.primaryKey]!;
  const maxDepth = opts.maxDepth ?? 3;
  const valueCtx: ValueContext = { now: opts.now ?? new Date(), user: opts.user ?? null, role: opts.role ?? null };
  const related = (def: FieldSchema) => schema[def.relation!]!;

  // ---- fields → a tree with deterministic column aliases
  let aliasSeq = 0;
  const newNode = (table: TableSchema): TreeNode => ({ table, leaves: new Map(), children: new Map() });
  const tree = newNode(root);
  const child = (node: TreeNode, name: string, def: FieldSchema) => {
    let c = node.children.get(name);
    if (!c) {
      c = { node: newNode(related(def)), pkAlias: '' };
      node.children.set(name, c);
    }
    return c.node;
  };
  const addAll = (node: TreeNode, expand: boolean, depth: number) => {
    for (const [name, def] of Object.entries(node.table.fields)) {
      if (expand && def.relation && depth < maxDepth) addAll(child(node, name, def), false, depth + 1);
      else node.leaves.set(name, { field: name, def, alias: '' });
    }
  };
  const addPath = (node: TreeNode, segs: string[], depth: number): void => {
    const [seg, ...rest] = segs;
    if (seg === '*') {
      if (rest.length === 0) return addAll(node, false, depth);
      if (rest.length === 1 && rest[0] === '*') return addAll(node, true, depth);
      throw errors.invalidQuery('Invalid wildcard in "fields".');
    }
    const def = fieldOf(node.table, seg!);
    if (!def || def.concealed) throw forbidden();
    if (rest.length === 0) {
      node.leaves.set(seg!, { field: seg!, def, alias: '' });
      return;
    }
    if (!def.relation) throw forbidden();
    if (depth >= maxDepth) throw errors.invalidQuery('"fields" nests too deep.');
    addPath(child(node, seg!, def), rest, depth + 1);
  };
  if (query.fields.length > 200) throw errors.invalidQuery('Too many fields.');
  for (const path of query.fields) {
    const segs = path.split('.');
    if (segs.some((s) => s === '')) throw errors.invalidQuery('Invalid field path.');
    addPath(tree, segs, 0);
  }
  const assign = (node: TreeNode, depth: number) => {
    for (const [name, leaf] of node.leaves) {
      if (node.children.has(name)) {
        node.leaves.delete(name);
        continue;
      }
      leaf.alias = `c${aliasSeq++}`;
      if (leaf.def.concealed) continue;
      const reducer = opts.reduce?.({ table: node.table, field: name, def: leaf.def, depth });
      if (!reducer) continue;
      for (const w of reducer.with) if (!fieldOf(node.table, w)) throw new Error(`planQuery: reducer reads unknown field ${node.table.name}.${w}`);
      leaf.reducer = reducer;
      leaf.withAliases = reducer.with.map(() => `c${aliasSeq++}`);
    }
    for (const c of node.children.values()) {
      c.pkAlias = `c${aliasSeq++}`;
      assign(c.node, depth + 1);
    }
  };
  assign(tree, 0);

  // ---- the order
  const sortKeys = query.random ? [] : (query.sort ?? [{ path: root.primaryKey, desc: false }]);
  const keyset = !query.random && sortKeys.length === 1 && sortKeys[0]!.path === root.primaryKey;
  const keysetDesc = keyset && sortKeys[0]!.desc;
  let after: string | undefined;
  if (query.after) {
    if (!keyset) throw errors.invalidQuery('"after" needs the order to be by the primary key only.');
    let decoded: unknown;
    try {
      decoded = JSON.parse(Buffer.from(query.after, 'base64url').toString('utf8'));
    } catch {
      throw errors.invalidQuery('Invalid "after" cursor.');
    }
    if (!isPlainObject(decoded) || decoded.d !== (keysetDesc ? 1 : 0)) throw errors.invalidQuery('Invalid "after" cursor.');
    after = String(typedValue('after', rootPk.type, decoded.k));
  }

  // ---- one SQL statement: params + the joins it needed
  class Stmt {
    readonly params = new Params();
    private readonly joins: string[] = [];
    private readonly joinAlias = new Map<string, string>();
    private filterNodes = 0;

    joinText = () => (this.joins.length ? ` ${this.joins.join(' ')}` : '');

    join(parentAlias: string, key: string, name: string, def: FieldSchema): string {
      const known = this.joinAlias.get(key);
      if (known) return known;
      const rel = related(def);
      const alias = `j${this.joinAlias.size + 1}`;
      this.joinAlias.set(key, alias);
      const extra = opts.rowFilter?.(rel, alias, this.params);
      const relPk = rel.fields[rel.primaryKey]!;
      this.joins.push(
        `LEFT JOIN ${q(rel.table)} AS ${alias} ON ${alias}.${col(rel.primaryKey, relPk)} = ${parentAlias}.${col(name, def)}` +
          (extra ? ` AND (${extra})` : ''),
      );
      return alias;
    }

    /** `activity.timestamp` → its expression, joining what it crosses. */
    resolve(path: string): { expr: string; def: FieldSchema; table: TableSchema; alias: string; field: string } {
      const segs = path.split('.');
      if (segs.length > maxDepth + 1) throw errors.invalidQuery(`Path "${segs.length}" levels deep is too deep.`);
      let table = root;
      let alias = ROOT;
      let key = '';
      for (let i = 0; i < segs.length - 1; i++) {
        const def = fieldOf(table, segs[i]!);
        if (!def || !def.relation) throw forbidden();
        key = key ? `${key}.${segs[i]}` : segs[i]!;
        alias = this.join(alias, key, segs[i]!, def);
        table = related(def);
      }
      const field = segs[segs.length - 1]!;
      const def = fieldOf(table, field);
      if (!def || def.concealed) throw forbidden();
      return { expr: `${alias}.${col(field, def)}`, def, table, alias, field };
    }

    /** A path's value as the caller may see it (`project` applied): for groups and sorts, like selected values. */
    value(path: string): { expr: string; def: FieldSchema } {
      const r = this.resolve(path);
      if (!opts.project) return r;
      const depth = path.split('.').length - 1;
      return { expr: opts.project({ table: r.table, field: r.field, def: r.def, expr: r.expr, alias: r.alias, depth, params: this.params }), def: r.def };
    }

    select(): string[] {
      const cols: string[] = [];
      const walk = (node: TreeNode, alias: string, key: string, depth: number) => {
        for (const leaf of node.leaves.values()) {
          const expr = `${alias}.${col(leaf.field, leaf.def)}`;
          if (leaf.def.concealed) {
            cols.push(`CASE WHEN ${expr} IS NULL THEN NULL ELSE '${CONCEALED}' END AS ${q(leaf.alias)}`);
            continue;
          }
          const asText = opts.jsonText && leaf.def.type === 'json' ? '::text' : '';
          if (leaf.reducer) {
            cols.push(`${expr}${asText} AS ${q(leaf.alias)}`);
            leaf.reducer.with.forEach((w, i) => cols.push(`${alias}.${col(w, fieldOf(node.table, w)!)} AS ${q(leaf.withAliases![i]!)}`));
            continue;
          }
          const projected = opts.project
            ? opts.project({ table: node.table, field: leaf.field, def: leaf.def, expr, alias, depth, params: this.params })
            : expr;
          cols.push(`${asText ? `(${projected})::text` : projected} AS ${q(leaf.alias)}`);
        }
        for (const [name, c] of node.children) {
          const def = fieldOf(node.table, name)!;
          const k = key ? `${key}.${name}` : name;
          const ja = this.join(alias, k, name, def);
          cols.push(`${ja}.${col(c.node.table.primaryKey, c.node.table.fields[c.node.table.primaryKey]!)} AS ${q(c.pkAlias)}`);
          walk(c.node, ja, k, depth + 1);
        }
      };
      walk(tree, ROOT, '', 0);
      return cols;
    }

    where(withFilter: boolean, withCursor: boolean): string {
      const parts: string[] = [];
      const rf = opts.rowFilter?.(root, ROOT, this.params);
      if (rf) parts.push(`(${rf})`);
      if (withFilter && query.filter) {
        const f = this.filter(query.filter, root, ROOT, '', 0);
        if (f !== 'TRUE') parts.push(f);
      }
      if (withFilter && query.search) parts.push(this.search(query.search));
      if (withCursor && after !== undefined) {
        parts.push(`${ROOT}.${col(root.primaryKey, rootPk)} ${keysetDesc ? '<' : '>'} ${this.params.add(after, SQL_CAST[rootPk.type])}`);
      }
      return parts.length ? ` WHERE ${parts.join(' AND ')}` : '';
    }

    orderBy(reverse = false): string {
      if (query.random) return ' ORDER BY random()';
      const dir = (desc: boolean) => (desc !== reverse ? 'DESC' : 'ASC');
      const terms = sortKeys.map((k) => `${this.value(k.path).expr} ${dir(k.desc)}`);
      if (!sortKeys.some((k) => k.path === root.primaryKey)) terms.push(`${ROOT}.${col(root.primaryKey, rootPk)} ${dir(false)}`);
      return ` ORDER BY ${terms.join(', ')}`;
    }

    page(limit = query.limit, offset = query.offset): string {
      let s = '';
      if (limit !== -1) s += ` LIMIT ${this.params.add(limit, 'int8')}`;
      if (offset > 0) s += ` OFFSET ${this.params.add(offset, 'int8')}`;
      return s;
    }

    filter(node: unknown, table: TableSchema, alias: string, key: string, depth: number): string {
      if (++this.filterNodes > MAX_FILTER_NODES || depth > MAX_FILTER_DEPTH) throw errors.invalidQuery('The filter is too large.');
      if (!isPlainObject(node)) throw errors.invalidQuery('A filter must be an object.');
      const parts: string[] = [];
      for (const [k, v] of Object.entries(node)) {
        if (k === '_and' || k === '_or') {
          if (!Array.isArray(v)) throw errors.invalidQuery(`"${k}" needs an array.`);
          const subs = v.map((x) => this.filter(x, table, alias, key, depth + 1));
          if (subs.length === 0) continue;
          parts.push(`(${subs.join(k === '_and' ? ' AND ' : ' OR ')})`);
          continue;
        }
        if (k.startsWith('_')) throw errors.invalidQuery('Unknown operator at the field level.');
        const def = fieldOf(table, k);
        if (!def || def.concealed) throw forbidden();
        if (!isPlainObject(v)) throw errors.invalidQuery('A field filter must be an object of operators.');
        const keys = Object.keys(v);
        const isRelational = def.relation !== undefined && keys.some((x) => !x.startsWith('_') || x === '_and' || x === '_or');
        if (isRelational) {
          if (depth >= maxDepth + MAX_FILTER_DEPTH) throw errors.invalidQuery('The filter nests too deep.');
          const k2 = key ? `${key}.${k}` : k;
          const ja = this.join(alias, k2, k, def);
          if (k2.split('.').length > maxDepth) throw errors.invalidQuery('The filter nests too deep.');
          parts.push(this.filter(v, related(def), ja, k2, depth + 1));
          continue;
        }
        if (keys.length === 0) throw errors.invalidQuery('A field filter needs an operator.');
        for (const op of keys) parts.push(this.operator(k, def, `${alias}.${col(k, def)}`, op, v[op]));
      }
      if (parts.length === 0) return 'TRUE';
      return parts.length === 1 ? parts[0]! : `(${parts.join(' AND ')})`;
    }

    operator(field: string, def: FieldSchema, expr: string, op: string, raw: unknown): string {
      const type = def.type;
      if (!OPERATORS_BY_TYPE[type].includes(op)) throw errors.invalidQuery(`Operator not valid for field "${field}".`);
      const cast = SQL_CAST[type];
      const value = resolveDynamic(raw, valueCtx);
      const p = (v: unknown) => this.params.add(typedValue(field, type, v), cast);
      const bool = () => {
        if (value === true || value === false) return value;
        if (value === 1 || value === '1') return true;
        if (value === 0 || value === '0') return false;
        throw errors.invalidQuery(`"${op}" needs true or false.`);
      };
      const array = (): unknown[] => {
        let arr: unknown[];
        if (Array.isArray(raw)) arr = raw;
        else if (typeof raw === 'string') arr = raw.split(',');
        else if (typeof raw === 'number') arr = [raw];
        else throw errors.invalidQuery(`"${op}" needs an array.`);
        if (arr.length === 0 || arr.length > 10_000) throw errors.invalidQuery(`"${op}" needs a non-empty array.`);
        return arr.map((x) => {
          const r = resolveDynamic(x, valueCtx);
          if (r === null || r === undefined || Array.isArray(r) || (typeof r === 'object' && !(r instanceof Date)))
            throw errors.invalidQuery(`"${op}" needs scalar values.`);
          return r;
        });
      };
      switch (op) {
        case '_eq':
        case '_neq': {
          if (value === '') throw errors.invalidQuery(`"${op}" needs a non-empty value.`);
          if (value === null) return `${expr} IS ${op === '_eq' ? '' : 'NOT '}NULL`;
          if (typeof value === 'object' && !(value instanceof Date)) throw errors.invalidQuery(`"${op}" needs a scalar value.`);
          return `${expr} ${op === '_eq' ? '=' : '<>'} ${p(value)}`;
        }
        case '_lt':
        case '_lte':
        case '_gt':
        case '_gte':
          if (value === null || value === '' || (typeof value === 'object' && !(value instanceof Date)))
            throw errors.invalidQuery(`"${op}" needs a value.`);
          return `${expr} ${COMPARE_OPS[op]} ${p(value)}`;
        case '_in':
        case '_nin': {
          const vals = array().map((v) => typedValue(field, type, v));
          const list = this.params.add(vals, `${cast}[]`);
          return op === '_in' ? `${expr} = ANY(${list})` : `NOT (${expr} = ANY(${list}))`;
        }
        case '_between':
        case '_nbetween': {
          const vals = array();
          if (vals.length !== 2) throw errors.invalidQuery(`"${op}" needs exactly two values.`);
          return `${expr} ${op === '_between' ? '' : 'NOT '}BETWEEN ${p(vals[0])} AND ${p(vals[1])}`;
        }
        case '_null':
          return `${expr} IS ${bool() ? '' : 'NOT '}NULL`;
        case '_nnull':
          return `${expr} IS ${bool() ? 'NOT ' : ''}NULL`;
        case '_empty':
          return bool() ? `(${expr} IS NULL OR ${expr} = '')` : `(${expr} IS NOT NULL AND ${expr} <> '')`;
        case '_nempty':
          return bool() ? `(${expr} IS NOT NULL AND ${expr} <> '')` : `(${expr} IS NULL OR ${expr} = '')`;
        default: {
          const like = LIKE_OPS[op];
          if (!like) throw errors.invalidQuery('Unknown operator.');
          if (value === null || value === '' || typeof value === 'object') throw errors.invalidQuery(`"${op}" needs a text value.`);
          const [neg, ci, pre, post] = like;
          const s = String(typedValue(field, 'string', value));
          const pattern = this.params.add(`${pre ? '%' : ''}${escapeLike(s)}${post ? '%' : ''}`, 'text');
          return `${expr} ${neg ? 'NOT ' : ''}${ci ? 'ILIKE' : 'LIKE'} ${pattern}`;
        }
      }
    }

    search(term: string): string {
      if (term.includes('\u0000')) throw errors.invalidQuery('Invalid "search".');
      const parts: string[] = [];
      const isInt = /^-?\d{1,18}$/.test(term);
      const isNum = /^-?(\d{1,30}(\.\d{0,30})?|\.\d{1,30})$/.test(term);
      for (const [name, def] of Object.entries(root.fields)) {
        const searchable = def.searchable ?? (isStringType(def.type) || isNumericType(def.type));
        if (!searchable || def.concealed) continue;
        const expr = `${ROOT}.${col(name, def)}`;
        if (isStringType(def.type)) parts.push(`${expr} ILIKE ${this.params.add(`%${escapeLike(term)}%`, 'text')}`);
        else if ((def.type === 'integer' || def.type === 'bigInteger') && isInt) parts.push(`${expr} = ${this.params.add(term, 'int8')}`);
        else if ((def.type === 'float' || def.type === 'decimal') && isNum) parts.push(`${expr} = ${this.params.add(term, SQL_CAST[def.type])}`);
      }
      return parts.length ? `(${parts.join(' OR ')})` : 'FALSE';
    }
  }

  const rootFrom = `${q(root.table)} AS ${ROOT}`;
  const pkExpr = `${ROOT}.${col(root.primaryKey, rootPk)}`;
  const deferFrom = opts.deferredJoinOffset ?? 1000;

  const count = (which: 'total' | 'filter'): Sql => {
    const s = new Stmt();
    const where = s.where(which === 'filter', false);
    return { text: `SELECT count(*)::int8 AS n FROM ${rootFrom}${s.joinText()}${where}`, values: s.params.values };
  };

  // ---- aggregate
  if (query.aggregate || query.groupBy.length > 0) {
    const groups = query.groupBy;
    const aggs: { fn: AggregateFn; field: string }[] = [];
    for (const [fn, fields] of Object.entries(query.aggregate ?? {}) as [AggregateFn, string[]][])
      for (const f of fields) aggs.push({ fn, field: f });
    if (groups.length > 20 || aggs.length > 100) throw errors.invalidQuery('Too many aggregates.');
    const build = (): Sql => {
      const s = new Stmt();
      const cols: string[] = [];
      const groupExprs = groups.map((g, i) => {
        const r = s.value(g);
        cols.push(`${r.expr} AS ${q(`g${i}`)}`);
        return r.expr;
      });
      aggs.forEach(({ fn, field }, i) => {
        if (field === '*') {
          if (fn !== 'count') throw errors.invalidQuery(`"${fn}" needs a field.`);
          cols.push(`count(*)::int8 AS ${q(`a${i}`)}`);
          return;
        }
        const r = s.resolve(field);
        const t = r.def.type;
        if ((fn === 'sum' || fn === 'avg') && !isNumericType(t)) throw errors.invalidQuery(`"${fn}" needs a numeric field.`);
        if ((fn === 'min' || fn === 'max') && !(isNumericType(t) || isDateType(t) || isStringType(t)))
          throw errors.invalidQuery(`"${fn}" is not valid for "${field}".`);
        if (fn === 'countDistinct' && t === 'json') throw errors.invalidQuery(`"${fn}" is not valid for "${field}".`);
        const sql =
          fn === 'count' ? `count(${r.expr})::int8` : fn === 'countDistinct' ? `count(DISTINCT ${r.expr})::int8` : `${fn}(${r.expr})`;
        cols.push(`${sql} AS ${q(`a${i}`)}`);
      });
      if (cols.length === 0) throw errors.invalidQuery('Nothing to aggregate.');
      const where = s.where(true, false);
      let order = '';
      if (query.random) order = ' ORDER BY random()';
      else if (query.sort) {
        order = ` ORDER BY ${query.sort
          .map((k) => {
            const i = groups.indexOf(k.path);
            if (i < 0) throw errors.invalidQuery('With "groupBy", sort only by grouped fields.');
            return `${groupExprs[i]} ${k.desc ? 'DESC' : 'ASC'}`;
          })
          .join(', ')}`;
      } else if (groupExprs.length) order = ` ORDER BY ${groupExprs.map((_, i) => i + 1).join(', ')}`;
      const group = groupExprs.length ? ` GROUP BY ${groupExprs.map((_, i) => i + 1).join(', ')}` : '';
      const page = s.page();
      return { text: `SELECT ${cols.join(', ')} FROM ${rootFrom}${s.joinText()}${where}${group}${order}${page}`, values: s.params.values };
    };
    build(); // validates now
    const groupTypes = groups.map((g) => new Stmt().resolve(g).def.type);
    const aggTypes = aggs.map((a) => (a.field === '*' ? 'integer' : new Stmt().resolve(a.field).def.type));
    return {
      kind: 'aggregate',
      query,
      keyset: false,
      list: build,
      one: () => {
        throw forbidden();
      },
      count,
      nextCursor: () => null,
      shape: (rows) =>
        rows.map((row) => {
          const out: Record<string, unknown> = {};
          groups.forEach((g, i) => (out[g] = convert(groupTypes[i]!, row[`g${i}`])));
          aggs.forEach(({ fn, field }, i) => {
            const v = row[`a${i}`];
            const value =
              fn === 'count' || fn === 'countDistinct' || fn === 'sum' || fn === 'avg'
                ? v === null || v === undefined ? null : Number(v)
                : convert(aggTypes[i] as FieldType, v);
            const onlyStar = field === '*' && (query.aggregate?.[fn]?.length ?? 0) === 1;
            if (onlyStar) out[fn] = value;
            else ((out[fn] ??= {}) as Record<string, unknown>)[field] = value;
          });
          return out;
        }),
    };
  }

  // ---- list
  const list = (): Sql => {
    const s = new Stmt();
    const cols = s.select();
    cols.push(`${pkExpr} AS "_k"`);
    const where = s.where(true, true);
    const order = s.orderBy();
    const total = opts.totalHint;
    const deferred = query.offset >= deferFrom && !query.random;
    const seek = deferred && keyset && after === undefined ? opts.seek?.({ desc: keysetDesc, offset: query.offset, params: s.params }) : null;
    if (seek) {
      const joins = s.joinText();
      const bound = `${pkExpr} ${keysetDesc ? '<=' : '>='} (SELECT "lo" FROM "seek")`;
      const seekWhere = where ? `${where} AND ${bound}` : ` WHERE ${bound}`;
      const limit = query.limit !== -1 ? ` LIMIT ${s.params.add(query.limit, 'int8')}` : '';
      const inner = `SELECT ${pkExpr} AS "_d" FROM ${rootFrom}${joins}${seekWhere}${order}${limit} OFFSET (SELECT "skip" FROM "seek")`;
      return {
        text: `WITH "seek" AS (${seek}) SELECT ${cols.join(', ')} FROM ${rootFrom} JOIN (${inner}) AS d ON d."_d" = ${pkExpr}${joins}${order}`,
        values: s.params.values,
      };
    }
    const reverse = deferred && total !== undefined && query.limit !== -1 && after === undefined && query.offset > total / 2;
    let innerOrder = order;
    let page: string;
    if (reverse) {
      // rows [offset, offset + limit) of `total` are rows [total - offset - limit, total - offset) read backwards
      const remaining = Math.max(0, total - query.offset);
      const revOffset = Math.max(0, remaining - query.limit);
      innerOrder = s.orderBy(true);
      page = s.page(remaining - revOffset, revOffset);
    } else page = s.page();
    const joins = s.joinText();
    if (deferred) {
      const inner = `SELECT ${pkExpr} AS "_d" FROM ${rootFrom}${joins}${where}${innerOrder}${page}`;
      return {
        text: `SELECT ${cols.join(', ')} FROM ${rootFrom} JOIN (${inner}) AS d ON d."_d" = ${pkExpr}${joins}${order}`,
        values: s.params.values,
      };
    }
    return { text: `SELECT ${cols.join(', ')} FROM ${rootFrom}${joins}${where}${order}${page}`, values: s.params.values };
  };
  list(); // validates now
  count('filter');

  const jsonText = opts.jsonText;
  const shapeNode = (node: TreeNode, row: Record<string, unknown>): Record<string, unknown> => {
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
    for (const [name, c] of node.children) out[name] = row[c.pkAlias] === null || row[c.pkAlias] === undefined ? null : shapeNode(c.node, row);
    return out;
  };

  return {
    kind: 'list',
    query,
    keyset,
    list,
    count,
    one: (id: unknown) => {
      let key: string | number | boolean;
      try {
        key = typedValue(root.primaryKey, rootPk.type, id);
      } catch {
        throw forbidden();
      }
      const s = new Stmt();
      const cols = s.select();
      const rf = opts.rowFilter?.(root, ROOT, s.params);
      const cond = `${pkExpr} = ${s.params.add(key, SQL_CAST[rootPk.type])}${rf ? ` AND (${rf})` : ''}`;
      return { text: `SELECT ${cols.join(', ')} FROM ${rootFrom}${s.joinText()} WHERE ${cond} LIMIT 1`, values: s.params.values };
    },
    shape: (rows) => rows.map((row) => shapeNode(tree, row)),
    nextCursor: (rows) => {
      if (!keyset || query.limit <= 0 || rows.length < query.limit) return null;
      const last = rows[rows.length - 1]!._k;
      if (last === null || last === undefined) return null;
      return Buffer.from(JSON.stringify({ k: String(last), d: keysetDesc ? 1 : 0 })).toString('base64url');
    },
  };
}
