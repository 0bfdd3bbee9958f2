import type { Pool } from 'pg';
import { errors } from '@vellum/errors';
import type { Accountability } from '@vellum/http';
import { parseQuery, planQuery, type Layout, type Params, type Plan, type PlanOptions, type Query } from '@vellum/query';
import { collectionTestSql } from './collection-test-sql';
import { PlanCache } from './plan-cache';
import { StatementRunner } from '../data/statement-runner';
import { countFromCounters, REVISION_BLOCK_SIZE, type CountedEntity } from '../data/record-counts.repository';
import { revisionsSchema } from './query-schema';
import { ACTIVITY_COLLECTION, readableJsonSql, visibilityOf, visibleCollections, type AccessRules, type Visibility } from './visibility';

export type Entity = CountedEntity;

export interface ReaderLimits {
  limitDefault: number;
  /** -1 or undefined = no cap. */
  limitMax?: number;
  deferredJoinOffset?: number;
  /** Most readable collections a list reads per collection and merges (default MERGE_MAX_COLLECTIONS; 0 = never). */
  mergeMaxCollections?: number;
}

/** How a read hands out its rows. */
export interface ReadOptions {
  /** `data`/`delta` as the database's JSON text wrapped by this (e.g. `rawJson`), unparsed (PlanOptions.jsonText). */
  jsonText?: (text: string) => unknown;
}

export interface ListOptions extends ReadOptions {
  /** Add `meta.next_cursor` (keyset pagination). */
  withCursor?: boolean;
  /**
   * The text the query was parsed from, exactly (the URL's query string; for a body, its JSON), with what tells
   * its kind apart (`GET`, `SEARCH`): the same text plans the same for callers who see the same (PlanCache).
   */
  cacheKey?: string;
}

/** What `read` gives: the rows as objects, or as arrays over `fields` (pg's result fields) when those are given. */
interface ReadResult {
  plan: Plan;
  rows: Record<string, unknown>[];
  fields?: readonly { name: string }[];
  meta: Record<string, number | string | null>;
}

export interface ListResult {
  data: Record<string, unknown>[];
  meta?: Record<string, number | string | null>;
}

/** A list answers with `meta` when something was asked for (or computed, as a cursor). */
const withMeta = (meta: Record<string, unknown>, query: Query) => Object.keys(meta).length > 0 || query.meta.length > 0;

/** Most readable collections whose revisions a list reads per collection and merges (PlanOptions.partitions). */
export const MERGE_MAX_COLLECTIONS = 4;

/** A filter that only restricts `collection` (`_eq` / `_in`), as the counters can answer it. */
function collectionOnly(filter: Record<string, unknown> | null): string[] | undefined {
  if (!filter) return undefined;
  let f: unknown = filter;
  while (f && typeof f === 'object' && !Array.isArray(f) && Object.keys(f).length === 1 && Array.isArray((f as { _and?: unknown })._and)) {
    const and = (f as { _and: unknown[] })._and;
    if (and.length !== 1) return undefined;
    f = and[0];
  }
  if (!f || typeof f !== 'object' || Array.isArray(f)) return undefined;
  const keys = Object.keys(f);
  if (keys.length !== 1 || keys[0] !== 'collection') return undefined;
  const ops = (f as { collection: Record<string, unknown> }).collection;
  const opKeys = Object.keys(ops);
  if (opKeys.length !== 1) return undefined;
  const plain = (v: unknown): v is string => typeof v === 'string' && v !== '' && !v.startsWith('$') && !['null', 'true', 'false'].includes(v);
  if (opKeys[0] === '_eq' && plain(ops._eq)) return [ops._eq];
  if (opKeys[0] === '_in') {
    const list = typeof ops._in === 'string' ? ops._in.split(',') : ops._in;
    if (Array.isArray(list) && list.length > 0 && list.every(plain)) return list;
  }
  return undefined;
}

/**
 * The start of a deep page of revisions ordered by id, from `revision_blocks` (see PlanOptions.seek): the first block
 * (in the order's direction) whose running count passes `offset`, and how many of its rows to skip. The offset is the
 * statement's one parameter (the collections are written in): one text for every offset, whose generic plan
 * PostgreSQL keeps (the page's OFFSET is the seek's `skip`, not a parameter).
 */
function seekRevisions(collections: '*' | string[]) {
  return ({ desc, offset, params }: { desc: boolean; offset: number; params: Params }): string => {
    const o = params.add(offset, 'int8');
    const where = collections === '*' ? '' : ` WHERE collection ${collectionTestSql(collections)}`;
    const dir = desc ? 'DESC' : 'ASC';
    const lo = desc ? `(b.block + 1) * ${REVISION_BLOCK_SIZE} - 1` : `b.block * ${REVISION_BLOCK_SIZE}`;
    return (
      `SELECT ${lo} AS "lo", (${o} - (b.upto - b.n))::int8 AS "skip" FROM ` +
      `(SELECT block, n, sum(n) OVER (ORDER BY block ${dir}) AS upto FROM ` +
      `(SELECT block, sum(count) AS n FROM revision_blocks${where} GROUP BY block) AS g) AS b ` +
      `WHERE b.upto > ${o} ORDER BY b.block ${dir} LIMIT 1`
    );
  };
}

/** Reads revisions and activity with the query language, the caller's permissions pushed into SQL. */
export class RecordsReader {
  private readonly plans = new PlanCache();
  /** Statements prepared per connection once seen twice (planning grows with the partitions), read as arrays. */
  private readonly statements: StatementRunner;
  /**
   * Queries parsed from frozen inputs: `req.query` objects, one per distinct query text (the apps' cachedQueryParser
   * keeps at most 1,000). A WeakMap: an entry goes with its input.
   */
  private readonly parsed = new WeakMap<object, Query>();

  constructor(
    private readonly pool: Pool,
    private readonly rules: AccessRules,
    private readonly limits: ReaderLimits,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.statements = new StatementRunner(pool);
  }

  /** How many plans the cache has kept since the start (each a query text first met by a visibility). */
  cachedPlans(): number {
    return this.plans.stored;
  }

  visibility(acc: Accountability | undefined): Visibility {
    return visibilityOf(acc, this.rules);
  }

  private guard(entity: Entity, vis: Visibility): void {
    if (entity === 'activity' && !vis.all && !Object.hasOwn(vis.fields, ACTIVITY_COLLECTION)) throw errors.forbidden();
  }

  private options(entity: Entity, vis: Visibility, acc: Accountability | undefined, extra: Partial<PlanOptions>): PlanOptions {
    const opts: PlanOptions = {
      ...extra,
      now: this.now(),
      user: acc?.user ?? null,
      role: acc?.role ?? null,
      deferredJoinOffset: this.limits.deferredJoinOffset,
    };
    if (vis.all) return opts;
    const { collections, collectionTest, fieldsJson, reducer } = vis;
    opts.rowFilter = (table, alias) => (table.name === 'revisions' ? `${alias}."collection" ${collectionTest}` : null);
    // a few readable collections: a deep page reads one branch each over the (collection, id) index, merged in id
    // order (no scan of the rows of other collections; the same rows as the row filter above). Each branch costs planning time, so many collections (then mostly dense: a filtered scan of the primary key drops few rows) keep it.
    if (collections.length > 0 && collections.length <= (this.limits.mergeMaxCollections ?? MERGE_MAX_COLLECTIONS))
      opts.partitions = (table, alias) => (table.name === 'revisions' ? collections.map((c) => `${alias}."collection" ${collectionTestSql([c])}`) : null);
    opts.project = ({ table, field, expr, alias, params }) => {
      if (table.name !== 'revisions' || (field !== 'data' && field !== 'delta')) return expr;
      return readableJsonSql(expr, alias, params.add(fieldsJson, 'jsonb'));
    };
    // selected values are reduced in Node on the page (cheaper than the SQL form per row); groups/sorts use `project`
    opts.reduce = ({ table, field }) => (table.name === 'revisions' && (field === 'data' || field === 'delta') ? reducer : undefined);
    return opts;
  }

  /** The query language of a request; a frozen input (a cached `req.query`) is parsed once. */
  parse(raw: unknown): Query {
    const frozen = typeof raw === 'object' && raw !== null && Object.isFrozen(raw);
    const known = frozen ? this.parsed.get(raw) : undefined;
    if (known) return known;
    const max = this.limits.limitMax;
    const query = parseQuery(raw, { limitDefault: this.limits.limitDefault, limitMax: max !== undefined && max >= 0 ? max : undefined });
    if (frozen) this.parsed.set(raw, query);
    return query;
  }

  plan(entity: Entity, acc: Accountability | undefined, query: Query, extra: Partial<PlanOptions> = {}): { plan: Plan; vis: Visibility } {
    const vis = this.visibility(acc);
    this.guard(entity, vis);
    return { plan: planQuery(revisionsSchema, entity, query, this.options(entity, vis, acc, extra)), vis };
  }

  /** `plan`, from the cache when the query text allows (see PlanCache). */
  private cachedPlan(
    entity: Entity,
    acc: Accountability | undefined,
    query: Query,
    text: Partial<PlanOptions>,
    cacheKey: string | undefined,
  ): { plan: Plan; vis: Visibility } {
    const key = cacheKey === undefined ? undefined : PlanCache.keyOf(`${entity} ${text.jsonText ? 'text' : 'json'}`, cacheKey);
    if (key === undefined) return this.plan(entity, acc, query, text);
    const vis = this.visibility(acc);
    const hit = this.plans.get(vis, key);
    if (hit) {
      this.guard(entity, vis);
      return { plan: hit, vis };
    }
    const planned = this.plan(entity, acc, query, text);
    return { plan: this.plans.set(planned.vis, key, planned.plan), vis: planned.vis };
  }

  /** The collections whose counters answer this query's filtered count exactly, or undefined (needs a count). */
  private countable(query: Query, visible: '*' | string[]): '*' | string[] | undefined {
    if (query.search) return undefined;
    if (!query.filter) return visible;
    const only = collectionOnly(query.filter);
    if (!only) return undefined;
    return visible === '*' ? only : only.filter((c) => visible.includes(c));
  }

  /** The list (or aggregate) with the requested meta. */
  async list(entity: Entity, acc: Accountability | undefined, query: Query, opts: ListOptions = {}): Promise<ListResult> {
    const { plan, rows, meta } = await this.read(entity, acc, query, opts);
    const data = plan.shape(rows);
    return withMeta(meta, query) ? { data, meta } : { data };
  }

  /**
   * `list` as the response body's JSON text, `{"data":[…],"meta":{…}}`: the page written straight from the rows
   * (Plan.serialize; an aggregate is shaped and stringified), JSON fields as the database's text (`jsonText`).
   */
  async listText(entity: Entity, acc: Accountability | undefined, query: Query, opts: ListOptions): Promise<string> {
    const { plan, rows, fields, meta } = await this.read(entity, acc, query, opts, !opts.withCursor);
    const arrays = fields && (rows as unknown as unknown[][]);
    let data = arrays && plan.serializeArrays!(arrays, fields!);
    if (data === undefined) {
      const objects = arrays ? asObjects(arrays, fields!) : rows;
      data = plan.serialize ? plan.serialize(objects) : JSON.stringify(plan.shape(objects));
    }
    return withMeta(meta, query) ? `{"data":${data},"meta":${JSON.stringify(meta)}}` : `{"data":${data}}`;
  }

  /**
   * A list page laid out by `layout` (a GraphQL selection), as JSON text written from the rows (Plan.serializeLayout);
   * undefined when the plan or a row does not fit the layout (the caller shapes objects with `list` instead).
   */
  async listLayout(entity: Entity, acc: Accountability | undefined, query: Query, opts: ListOptions, layout: Layout): Promise<string | undefined> {
    const { plan, rows, fields } = await this.read(entity, acc, query, opts, true);
    return fields && plan.serializeLayout?.(rows as unknown as unknown[][], fields, layout);
  }

  /** The rows of a list (or aggregate) and its meta. */
  private async read(entity: Entity, acc: Accountability | undefined, query: Query, opts: ListOptions, arrays = false): Promise<ReadResult> {
    const text: Partial<PlanOptions> = opts.jsonText ? { jsonText: opts.jsonText } : {};
    const { vis, plan: first } = this.cachedPlan(entity, acc, query, text, opts.cacheKey);
    let plan = first;
    const visible = entity === 'revisions' ? visibleCollections(vis) : '*';
    const deferred = plan.kind === 'list' && query.offset >= (this.limits.deferredJoinOffset ?? 1000) && !query.random && !query.after;
    const countableAs = this.countable(query, visible);
    let filterCount: number | undefined;
    if (deferred && countableAs !== undefined && entity === 'revisions' && plan.keyset) {
      // a deep page by id: the block counters say where it starts (one statement, no scan of the rows before it)
      // (the same for the same query text and visibility: cached like the first plan)
      plan = this.cachedPlan(entity, acc, query, { ...text, seek: seekRevisions(countableAs) }, opts.cacheKey && `${opts.cacheKey}\u0000seek`).plan;
    } else if (deferred && countableAs !== undefined) {
      // a deep page: the exact count (from the counters) lets the plan read from the nearer end of the index
      filterCount = await countFromCounters(this.pool, entity, countableAs);
      plan = this.plan(entity, acc, query, { ...text, totalHint: filterCount }).plan;
    }
    // `arrays`: the page as arrays when the plan writes it from them (pg fills an array: no object, no keyed stores)
    let fields: ReadResult['fields'];
    const rowsP =
      query.limit === 0 && plan.kind === 'list'
        ? Promise.resolve([])
        : arrays && plan.serializeArrays
          ? this.statements.arrays(plan.list()).then((r) => ((fields = r.fields), r.rows as unknown as Record<string, unknown>[]))
          : this.statements.rows(plan.list());
    const meta: Record<string, number | string | null> = {};
    const counts: Promise<void>[] = [];
    if (query.meta.includes('total_count')) counts.push(countFromCounters(this.pool, entity, visible).then((n) => void (meta.total_count = n)));
    if (query.meta.includes('filter_count')) {
      if (filterCount !== undefined) meta.filter_count = filterCount;
      else if (countableAs !== undefined) {
        counts.push(countFromCounters(this.pool, entity, countableAs).then((n) => void (meta.filter_count = n)));
      } else {
        counts.push(this.statements.rows<{ n: number }>(plan.count('filter')).then((rows) => void (meta.filter_count = Number(rows[0]?.n ?? 0))));
      }
    }
    const [rows] = await Promise.all([rowsP, ...counts]);
    if (opts.withCursor) meta.next_cursor = plan.nextCursor(rows);
    return { plan, rows, fields, meta };
  }

  /** One record by id; 403 when it does not exist, is not readable, or the id is not an integer. */
  async one(entity: Entity, acc: Accountability | undefined, id: string, query: Query, opts: ReadOptions = {}): Promise<Record<string, unknown>> {
    if (!/^\d{1,18}$/.test(id)) throw errors.forbidden();
    const { plan } = this.plan(entity, acc, { ...query, aggregate: null, groupBy: [] }, opts.jsonText ? { jsonText: opts.jsonText } : {});
    const rows = await this.statements.rows(plan.one(id));
    if (rows.length === 0) throw errors.forbidden();
    return plan.shape(rows)[0]!;
  }
}

/** Rows read as arrays, as pg would have given them as objects. */
const asObjects = (rows: unknown[][], fields: readonly { name: string }[]): Record<string, unknown>[] =>
  rows.map((row) => Object.fromEntries(fields.map((f, i) => [f.name, row[i]])));
