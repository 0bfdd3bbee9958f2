import type { Pool } from 'pg';
import { errors } from '@vellum/errors';
import type { Accountability } from '@vellum/http';
import { parseQuery, type Query } from '@vellum/query';
import { asOfRepository, historyComplete, type StateRow } from '../../data/as-of.repository';
import type { AccessRules } from '../visibility';
import { KeptShapes } from './kept-shapes';
import { KeyedPages } from './keyed-pages';
import { compareValues, matchFilter } from './match-filter';
import { PastAccess } from './past-access';
import { SqlLists } from './sql-lists';

type Item = Record<string, unknown>;

/** Which past state: a time (`?at=`) or a revision (`?at_revision=`). */
export type PastPoint = { at: Date } | { revision: string };

const ISO = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** `?at=` / `?at_revision=` of a request (neither: undefined; both, or a malformed one: 400). */
export function pastPointOf(query: Record<string, unknown>): PastPoint | undefined {
  const at = query.at;
  const rev = query.at_revision;
  if (at === undefined && rev === undefined) return undefined;
  if (at !== undefined && rev !== undefined) throw errors.invalidQuery('Use "at" or "at_revision", not both.');
  // a past state is the item's own (its revisions without a version, `main`): a content version's is not kept by time
  if (query.version !== undefined && query.version !== 'main')
    throw errors.invalidQuery('"version" cannot go with "at" or "at_revision": a past state is the item\'s own.');
  if (rev !== undefined) {
    if (typeof rev !== 'string' || !/^\d{1,18}$/.test(rev)) throw errors.invalidQuery('"at_revision" must be a revision id.');
    return { revision: rev };
  }
  const time = typeof at === 'string' && ISO.test(at) ? new Date(at) : undefined;
  if (!time || Number.isNaN(time.getTime())) throw errors.invalidQuery('"at" must be an ISO 8601 time.');
  return { at: time };
}

/** The `$meta` every past state carries: the revision it comes from and that revision's time. */
const withMeta = (item: Item, row: Pick<StateRow, 'id' | 'timestamp'>): Item => ({ ...item, $meta: { revision: row.id, at: row.timestamp.toISOString() } });

export interface AsOfLimits {
  limitDefault: number;
  limitMax?: number;
}

/**
 * Items as they were (`GET /items/:collection[/:id]?at=…`), rebuilt from the revisions: each revision's `data` is
 * the whole item after its change, so the state at a time is one revision per item. Today's field permissions apply.
 */
/** How lists are answered: `sql` every shape it can in SQL, `keyed` the key-ordered pages only, `general` in memory. */
export type AsOfListPaths = 'sql' | 'keyed' | 'general';

export class AsOfReader {
  private readonly keyed: KeyedPages | undefined;
  private readonly sql: SqlLists | undefined;

  constructor(
    private readonly pool: Pool,
    private readonly rules: AccessRules,
    private readonly limits: AsOfLimits,
    private readonly now: () => Date = () => new Date(),
    /** Lists in SQL when their shape allows (keyed-pages.ts, sql-lists.ts); `general`: in memory (tests compare them). */
    paths: AsOfListPaths = 'sql',
  ) {
    const shapes = new KeptShapes(pool);
    this.keyed = paths !== 'general' ? new KeyedPages(pool, shapes) : undefined;
    this.sql = paths === 'sql' ? new SqlLists(pool, shapes) : undefined;
  }

  /** The revision holding the item's state at `point`; 403 when the item did not exist then, 410 when that is pruned. */
  async stateRow(collection: string, item: string, point: PastPoint): Promise<StateRow & { data: Item }> {
    if ('revision' in point) {
      const row = await asOfRepository.byId(this.pool, point.revision);
      if (!row || row.collection !== collection || row.item !== item || row.data === null) throw errors.forbidden();
      return row as StateRow & { data: Item };
    }
    const row = await asOfRepository.stateAt(this.pool, collection, item, point.at);
    if (row) {
      if (row.data === null) throw errors.forbidden();
      return row as StateRow & { data: Item };
    }
    const first = await asOfRepository.firstKept(this.pool, collection, item);
    if (first && !historyComplete(first)) throw errors.historyPruned(first.timestamp.toISOString());
    throw errors.forbidden();
  }

  async one(acc: Accountability | undefined, collection: string, item: string, point: PastPoint, rawQuery: unknown): Promise<Item> {
    const access = new PastAccess(acc, this.rules, collection);
    const query = parseQuery(rawQuery);
    const row = await this.stateRow(collection, item, point);
    return withMeta(access.project(access.reduce(row.data), query.fields), row);
  }

  /** Every item of the collection as it was at `at`, then `filter`, `search`, `sort`, paging and `fields` on those states. */
  async list(acc: Accountability | undefined, collection: string, at: Date, rawQuery: unknown): Promise<{ data: Item[]; meta?: Record<string, number> }> {
    const access = new PastAccess(acc, this.rules, collection);
    const query = parseQuery(rawQuery, this.limits);
    if (query.aggregate || query.groupBy.length || query.after || query.random)
      throw errors.invalidQuery('aggregate, groupBy, after and random order are not supported on past states.');
    for (const k of query.sort ?? []) access.check(k.path);
    access.checkNamed(query.fields, query.filter);
    const ctx = { now: this.now(), user: acc?.user ?? null, role: acc?.role ?? null };
    const matches = (item: Item) => (!query.filter || matchFilter(query.filter, item, ctx, access.check)) && searchHit(query, item);
    // in key order, the page's own items (a filter reads on in chunks); other shapes need every item's state: in SQL
    const keyedFits = this.keyed && KeyedPages.fits(query, access);
    const keyed = keyedFits ? await this.keyed!.page(collection, at, query, access, matches) : undefined;
    if (keyed) return { data: keyed.map((s) => withMeta(access.project(s.item, query.fields), s.row)) };
    const inSql = this.sql && (await this.sql.list(collection, at, query, access, ctx));
    if (inSql) {
      const data = inSql.states.map((s) => withMeta(access.project(s.item, query.fields), s.row));
      return query.meta.length ? { data, meta: metaOf(query, inSql.total, inSql.matched) } : { data };
    }
    const rows = await asOfRepository.collectionAt(this.pool, collection, at);
    let earliest: Date | undefined;
    const states: { item: Item; row: { id: number; timestamp: Date } }[] = [];
    for (const r of rows) {
      if (r.id === null) {
        if (r.first_at && !historyComplete({ item_version: r.first_version, action: r.first_action }) && (!earliest || r.first_at > earliest))
          earliest = r.first_at;
        continue;
      }
      if (r.data !== null) states.push({ item: access.reduce(r.data), row: { id: r.id, timestamp: r.timestamp! } });
    }
    if (earliest) throw errors.historyPruned(earliest.toISOString());
    const matching = states.filter((s) => matches(s.item));
    sortStates(matching, query, primaryKeyOf(matching));
    const page = query.limit === -1 ? matching.slice(query.offset) : matching.slice(query.offset, query.offset + query.limit);
    const data = page.map((s) => withMeta(access.project(s.item, query.fields), s.row));
    return query.meta.length ? { data, meta: metaOf(query, states.length, matching.length) } : { data };
  }
}

/** `meta`: `total_count` (the states at that time), `filter_count` (those matching). */
function metaOf(query: Query, total: number, matched: number): Record<string, number> {
  const meta: Record<string, number> = {};
  if (query.meta.includes('total_count')) meta.total_count = total;
  if (query.meta.includes('filter_count')) meta.filter_count = matched;
  return meta;
}

/** `search`: a case-insensitive substring of a string field, or equal to a numeric field when the term is a number. */
function searchHit(query: Query, item: Item): boolean {
  if (!query.search) return true;
  const term = query.search.toLowerCase();
  const num = Number(query.search);
  return Object.values(item).some((v) => (typeof v === 'string' ? v.toLowerCase().includes(term) : typeof v === 'number' && !Number.isNaN(num) && v === num));
}

/** The item's key field: `id` when the states have one (the usual primary key), else none (revision order). */
const primaryKeyOf = (states: { item: Item }[]) => (states.some((s) => Object.hasOwn(s.item, 'id')) ? 'id' : undefined);

/** The query's sort, then the primary key (the live list's default order), then the revision id. */
function sortStates(states: { item: Item; row: { id: number } }[], query: Query, pk: string | undefined): void {
  const keys = [...(query.sort ?? []), ...(pk ? [{ path: pk, desc: false }] : [])];
  states.sort((a, b) => {
    for (const k of keys) {
      const c = compareValues(a.item[k.path], b.item[k.path]);
      if (c !== 0) return k.desc ? -c : c;
    }
    return a.row.id - b.row.id;
  });
}
