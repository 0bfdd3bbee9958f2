import type { Pool } from 'pg';
import { errors } from '@vellum/errors';
import type { Query } from '@vellum/query';
import { asOfPageRepository } from '../../data/as-of-page.repository';
import type { KeptShapes } from './kept-shapes';
import type { PastAccess } from './past-access';

type Item = Record<string, unknown>;
export interface PastState {
  item: Item;
  row: { id: number; timestamp: Date };
}

/**
 * A list as it was, paged in SQL, for its common shape: sorted by the key (`id`) or not at all, no `meta`, a
 * limit. The page's items alone are rebuilt, in key order (the `id` order of the general path, when an item's
 * `id` is its key: checked on every state read, else undefined and the caller takes the general path); a filter
 * or search reads on in growing chunks until the page is full. The 410 of pruned history needs every item's oldest
 * kept revision: that `horizon` is kept per collection (kept-shapes.ts) under the fingerprint read with each page.
 */
export class KeyedPages {
  constructor(
    private readonly pool: Pool,
    private readonly shapes: KeptShapes,
  ) {}

  /** Whether `query` is a shape this path answers (the caller checked sort fields and the unsupported options). */
  static fits(query: Query, access: PastAccess): boolean {
    const sort = query.sort ?? [];
    return query.meta.length === 0 && query.limit !== -1 && access.can('id') && (sort.length === 0 || (sort.length === 1 && sort[0]!.path === 'id'));
  }

  /** The page (after `offset`, at most `limit` states matching `matches`), or undefined when an item's `id` is not its key. */
  async page(collection: string, at: Date, query: Query, access: PastAccess, matches: (item: Item) => boolean): Promise<PastState[] | undefined> {
    const desc = query.sort?.[0]?.desc ?? false;
    const want = query.offset + query.limit;
    const filtered = Boolean(query.filter || query.search);
    // unfiltered: exactly the page; filtered: chunks from the start, each after the last key read, doubling, until
    // `want` states match
    const offset = filtered ? 0 : query.offset;
    let chunk = filtered ? Math.max(2 * want, 100) : query.limit;
    let after: string | undefined;
    const read = (numeric: boolean) => asOfPageRepository.page(this.pool, collection, at, { numeric, desc, limit: chunk, offset, after });
    // the kept shape, if the page read in the same snapshot finds the collection's revisions unchanged since
    let kept = this.shapes.peek(collection);
    let got = kept && (await read(kept.shape.numeric));
    if (!kept || got!.fingerprint !== kept.fingerprint) {
      const before = kept?.shape.numeric;
      kept = await this.shapes.current(collection, got?.fingerprint);
      // the page read stands when its key order still holds (the shape is kept under that read's fingerprint)
      if (!got || kept.shape.numeric !== before) got = await read(kept.shape.numeric);
    }
    const { horizon, numeric } = kept.shape;
    if (horizon && at < horizon) throw errors.historyPruned(horizon.toISOString());
    const out: PastState[] = [];
    for (;;) {
      const rows = got!.rows;
      for (const r of rows) {
        const id = r.data.id;
        if (typeof id !== (numeric ? 'number' : 'string') || String(id) !== r.item) return undefined;
        const item = access.reduce(r.data);
        if (!filtered || matches(item)) out.push({ item, row: { id: r.id, timestamp: r.timestamp } });
      }
      if (!filtered) return out;
      if (out.length >= want || rows.length < chunk) return out.slice(query.offset, want);
      after = rows.at(-1)!.item;
      chunk *= 2;
      got = await read(numeric);
    }
  }
}
