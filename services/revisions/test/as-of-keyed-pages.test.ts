import type { Accountability } from '@vellum/http';
import { asOfPageRepository } from '../src/data/as-of-page.repository';
import { AsOfReader } from '../src/domain/as-of/as-of-reader';
import type { AccessRules } from '../src/domain/visibility';
import { createHarness, itemEvent, type Harness } from './helpers';

// A list as it was paged in SQL (keyed-pages.ts) answers what the general path (every item rebuilt, then filter,
// sort and page in memory) answers: random histories, random times and list shapes, both readers side by side.

const admin: Accountability = { user: null, role: null, admin: true, app: true };
const rules = { get: () => undefined } as unknown as AccessRules;
const limits = { limitDefault: 100 };
const BASE = Date.parse('2026-01-01T00:00:00Z');
const at = (minute: number) => new Date(BASE + minute * 60_000).toISOString();

function prng(seed: number) {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

type Outcome = { data?: unknown; error?: string };
const outcome = (p: Promise<unknown>): Promise<Outcome> =>
  p.then(
    (data) => ({ data }),
    (e: Error & { code?: string }) => ({ error: `${e.code ?? ''} ${e.message}` }),
  );

/** Items created, updated, deleted and created again at random minutes; `numeric`: integer ids, else text ids. */
async function seed(h: Harness, collection: string, numeric: boolean, rnd: () => number, items: number): Promise<void> {
  const events = [];
  for (let i = 0; i < items; i++) {
    const key = numeric ? String(Math.floor(rnd() * 1000) + i * 1000) : `k${Math.floor(rnd() * 36 ** 4).toString(36)}-${i}`;
    const id = numeric ? Number(key) : key;
    let minute = Math.floor(rnd() * 60);
    let version = 1;
    let alive = false;
    const changes = 1 + Math.floor(rnd() * 6);
    for (let c = 0; c < changes; c++, minute += 1 + Math.floor(rnd() * 20)) {
      const action: 'create' | 'update' | 'delete' = !alive ? 'create' : rnd() < 0.15 ? 'delete' : 'update';
      const data = action === 'delete' ? null : { id, title: `t${Math.floor(rnd() * 5)}`, n: Math.floor(rnd() * 10) };
      events.push(itemEvent({ collection, item: key, action, data, delta: data, at: at(minute), item_version: version++ }));
      alive = action !== 'delete';
    }
  }
  await h.writer.write(events);
}

describe('a list as it was, paged in SQL', () => {
  let h: Harness;
  let keyed: AsOfReader;
  let general: AsOfReader;
  beforeAll(async () => {
    h = await createHarness();
    keyed = new AsOfReader(h.pool, rules, limits, undefined, 'keyed'); // filters too by the key order (as-of-sql-lists.test.ts: in SQL)
    general = new AsOfReader(h.pool, rules, limits, undefined, 'general');
  });
  afterAll(() => h.close());

  it.each([
    ['num', true, 1, 40],
    ['str', false, 2, 40],
    ['big', true, 3, 300], // more items than a filtered read's first chunk (100): its next chunks start after a key
  ])('answers as the general path on a random history (%s)', async (collection, numeric, s, items) => {
    const rnd = prng(s as number);
    await seed(h, collection as string, numeric as boolean, rnd, items as number);
    const page = jest.spyOn(asOfPageRepository, 'page');
    const shapes = [
      () => ({ limit: 1 + Math.floor(rnd() * 15), offset: Math.floor(rnd() * 30) }),
      () => ({ limit: 5, page: 1 + Math.floor(rnd() * 5), sort: rnd() < 0.5 ? 'id' : '-id' }),
      () => ({ limit: 4, filter: { n: { _gte: Math.floor(rnd() * 10) } }, offset: Math.floor(rnd() * 5), sort: '-id' }),
      () => ({ limit: 3, search: `t${Math.floor(rnd() * 5)}`, fields: 'id,n' }),
      () => ({ limit: 10, filter: { title: { _eq: 't1' } }, meta: 'filter_count' }), // a shape for the general path
      () => ({
        limit: 4,
        offset: Math.floor(rnd() * 5),
        filter: { _and: [{ title: { _eq: 't1' } }, { n: { _eq: Math.floor(rnd() * 10) } }] },
        sort: rnd() < 0.5 ? 'id' : '-id',
      }),
    ];
    for (let i = 0; i < 60; i++) {
      const time = new Date(at(Math.floor(rnd() * 200) - 10));
      const query = shapes[i % shapes.length]!();
      const [a, b] = await Promise.all([
        outcome(keyed.list(admin, collection as string, time, query)),
        outcome(general.list(admin, collection as string, time, query)),
      ]);
      expect({ query, time, got: a }).toEqual({ query, time, got: b });
    }
    expect(page).toHaveBeenCalled();
    if (collection === 'big') expect(page.mock.calls.some((c) => c[3].after !== undefined)).toBe(true);
    page.mockRestore();
  });

  it('answers 410 as the general path when an item’s older history is gone, also once the shape was kept', async () => {
    await h.writer.write([itemEvent({ collection: 'gone', item: '1', action: 'create', data: { id: 1, n: 1 }, at: at(10), item_version: 1 })]);
    expect((await keyed.list(admin, 'gone', new Date(at(5)), { limit: 5 })).data).toEqual([]);
    const shape = jest.spyOn(asOfPageRepository, 'shape');
    expect((await keyed.list(admin, 'gone', new Date(at(15)), { limit: 5 })).data).toHaveLength(1);
    expect(shape).not.toHaveBeenCalled(); // kept while the collection's revisions are unchanged
    shape.mockRestore();
    // an item whose first kept revision is an update (from a producer without versions): before it, its state is gone
    await h.writer.write([itemEvent({ collection: 'gone', item: '2', action: 'update', data: { id: 2, n: 3 }, at: at(20) })]);
    for (const minute of [5, 15, 25]) {
      const [a, b] = await Promise.all([
        outcome(keyed.list(admin, 'gone', new Date(at(minute)), { limit: 5 })),
        outcome(general.list(admin, 'gone', new Date(at(minute)), { limit: 5 })),
      ]);
      expect(a).toEqual(b);
      expect(a.error ?? '').toMatch(minute < 20 ? /pruned|retention|410|history/i : /^$/);
    }
  });

  it('brings the kept shape up to date from the revisions added since, and computes it again when a first revision changes', async () => {
    const c = 'grow';
    const compare = async (minute: number) => {
      const [a, b] = await Promise.all([
        outcome(keyed.list(admin, c, new Date(at(minute)), { limit: 5, sort: '-id' })),
        outcome(general.list(admin, c, new Date(at(minute)), { limit: 5, sort: '-id' })),
      ]);
      expect({ minute, a }).toEqual({ minute, a: b });
      return { error: a.error, data: (a.data as { data?: unknown[] } | undefined)?.data };
    };
    await h.writer.write([itemEvent({ collection: c, item: '1', action: 'create', data: { id: 1, n: 1 }, at: at(10), item_version: 1 })]);
    await compare(30);
    const shape = jest.spyOn(asOfPageRepository, 'shape');
    // an update of an existing item, then a new item whose history before minute 40 is gone: updated, not computed
    await h.writer.write([itemEvent({ collection: c, item: '1', data: { id: 1, n: 2 }, at: at(20), item_version: 2 })]);
    expect((await compare(30)).data).toEqual([expect.objectContaining({ id: 1, n: 2 })]);
    await h.writer.write([itemEvent({ collection: c, item: '7', action: 'update', data: { id: 7, n: 7 }, at: at(40) })]);
    expect((await compare(30)).error).toBeDefined();
    expect((await compare(45)).data).toHaveLength(2);
    expect(shape).not.toHaveBeenCalled();
    // item 7's create arrives late (an earlier time): its oldest kept revision changes, the shape is computed again
    await h.writer.write([itemEvent({ collection: c, item: '7', action: 'create', data: { id: 7, n: 0 }, at: at(25) })]);
    expect((await compare(30)).data).toHaveLength(2);
    expect(shape).toHaveBeenCalledTimes(1);
    shape.mockRestore();
  });
});
