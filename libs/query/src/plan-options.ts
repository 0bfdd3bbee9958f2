import type { Layout } from './serialize-layout';
import type { Params, Sql } from './params';
import type { Query } from './query';
import type { FieldSchema, FieldType, TableSchema } from './schema';
import type { RawMember } from './serialize-rows';

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
  /** `map` on JSON text (`jsonText`), giving the JSON text of its value: lets a page be written without parsing. */
  mapText?(text: string, ...withValues: unknown[]): string;
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
   * Where the root's rows come from, when not its table: a statement giving rows of the table's type (e.g. the
   * stored rows with a draft laid over some), read as the root `r` by every statement of the plan. Its values go
   * through `params` (added once per statement).
   */
  rootSource?: (params: Params) => string;
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
  /**
   * The row filter of a table as disjoint conditions whose union is exactly what `rowFilter` lets through, each read
   * in primary-key order by an index (e.g. `collection = $c` per readable collection over an index on
   * (collection, id)). A deep page (deferredJoinOffset) of a list ordered by the primary key alone, without filter
   * or search, then reads its keys from
   * each condition in key order and merges them (Merge Append): no scan of rows the row filter drops. The caller
   * must only offer it when the union equals the row filter. Null (or fewer than one) = not for this table.
   */
  partitions?: (table: TableSchema, alias: string, params: Params) => string[] | null;
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
  /**
   * The JSON text of `shape(rows)` (lists only), written from the rows without API objects; JSON fields read as
   * text (`jsonText`) go in as the database's text.
   */
  serialize?(rows: Record<string, unknown>[]): string;
  /**
   * `serialize` for rows read with pg's `rowMode: 'array'`, `fields` being the result's columns in order (pg's
   * `result.fields`); undefined when this plan's rows must be read as objects (then `serialize` them). `raw`:
   * members set on each row's object after shaping, their values JSON text from a column (kept: pass the same array).
   */
  serializeArrays?(rows: unknown[][], fields: readonly { name: string }[], raw?: readonly RawMember[]): string | undefined;
  /**
   * The selected fields in the order `shape` gives them, each with its column alias and type, when every one is a
   * field of the root written as read (no relation, reducer or concealed field); else undefined. Lets a caller build
   * a row's JSON in SQL with the same keys.
   */
  flatLeaves?: readonly { field: string; alias: string; type: FieldType }[];
  /**
   * The page (rows as for `serializeArrays`) laid out by `layout` (a GraphQL selection: serialize-layout.ts), written
   * from the rows; undefined when the layout does not fit this plan or a row (the caller shapes objects instead).
   * Compiled once per layout object and plan.
   */
  serializeLayout?(rows: unknown[][], fields: readonly { name: string }[], layout: Layout): string | undefined;
  /** An opaque `after` cursor for the next page (keyset), when the order is by primary key only; else null. */
  nextCursor(rows: Record<string, unknown>[]): string | null;
  /** True when the order is by primary key only (the keyset fast path applies). */
  keyset: boolean;
}
