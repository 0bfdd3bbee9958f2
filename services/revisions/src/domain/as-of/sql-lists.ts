import type { Pool } from 'pg';
import { errors } from '@vellum/errors';
import type { Query, ValueContext } from '@vellum/query';
import { asOfListRepository } from '../../data/as-of-list.repository';
import { fingerprintKey } from '../../data/as-of-page.repository';
import { filterSql, NotInSql, SqlParams } from './filter-sql';
import type { KeptShapes } from './kept-shapes';
import type { PastAccess } from './past-access';
import type { PastState } from './keyed-pages';

export interface SqlList {
  states: PastState[];
  total: number;
  matched: number;
}

/**
 * A list as it was answered in one statement (as-of-list.repository.ts) for the shapes that need every item's state
 * — a sort on a field, a filter, `meta`, `limit=-1` — as the general path answers them: its filter (filter-sql.ts),
 * its order (the query's sort on the readable state, then `id` when the role reads it, then the revision), its
 * counts. Undefined when SQL may not give the general path's answer (the caller takes that path): a `search`, a
 * filter it does not compile, or values it flags as odd in this collection at this time.
 */
export class SqlLists {
  constructor(
    private readonly pool: Pool,
    private readonly shapes: KeptShapes,
  ) {}

  async list(collection: string, at: Date, query: Query, access: PastAccess, ctx: ValueContext): Promise<SqlList | undefined> {
    if (query.search) return undefined;
    const p = new SqlParams([collection, at, query.limit === -1 ? null : query.limit, query.offset]);
    let filter;
    try {
      filter = query.filter ? filterSql(p, query.filter, ctx, access.check) : { hit: 'true', odd: 'false' };
    } catch (e) {
      if (e instanceof NotInSql) return undefined;
      throw e;
    }
    // the sort fields were checked by the caller (403 for a hidden one)
    const keys = [...(query.sort ?? []), ...(access.can('id') ? [{ path: 'id', desc: false }] : [])].map((k) => ({ value: p.field(k.path), desc: k.desc }));
    const got = await asOfListRepository.list(this.pool, { ...filter, keys, fields: p.columns(), values: p.values });
    const { horizon } = (await this.shapes.current(collection, fingerprintKey(got.fingerprint))).shape;
    if (horizon && at < horizon) throw errors.historyPruned(horizon.toISOString());
    if (got.odd) return undefined;
    const states = got.rows.map((r) => ({ item: access.reduce(r.data), row: { id: r.id, timestamp: r.timestamp } }));
    return { states, total: got.total, matched: got.matched };
  }
}
