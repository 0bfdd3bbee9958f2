import { randomBytes } from 'node:crypto';
import type { Accountability } from '@vellum/http';
import { AccessRuleMap } from '@vellum/tokens';
import { asOfRepository } from '../src/data/as-of.repository';
import { AsOfReader } from '../src/domain/as-of/as-of-reader';
import { access, createHarness, itemEvent, type Harness } from './helpers';

// A list as it was answered in one statement (sql-lists.ts: a sort on a field, a filter, meta, an offset) answers
// what the general path (every item rebuilt, then filter, sort and page in memory) answers: random histories with
// deletes, re-creates, items created after the time asked, nulls and missing values in the sorted fields, for an
// admin and for a role that reads some fields only.

const admin: Accountability = { user: null, role: null, admin: true, app: true };
const editor: Accountability = { user: 'u1', role: 'r-ed', admin: false, app: true };
const rules = AccessRuleMap.of({ 'r-ed': access('r-ed', { c: { read: ['id', 'title', 'n', 'flag'] }, k: { read: ['title', 'n'] } }) });
const limits = { limitDefault: 100 };
const BASE = Date.parse('2026-01-01T00:00:00Z');
const at = (minute: number) => new Date(BASE + minute * 60_000).toISOString();
const now = () => new Date(BASE + 90 * 60_000);

function prng(seed: number) {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}
const pick = <T>(rnd: () => number, xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;

type Outcome = { data?: unknown; error?: string };
const outcome = (p: Promise<unknown>): Promise<Outcome> =>
  p.then(
    (data) => ({ data }),
    (e: Error & { code?: string }) => ({ error: `${e.code ?? ''} ${e.message}` }),
  );

const TITLES = ['alpha', 'Beta', 'beta', 'gamma', 'Ça va', 'été', '', null, undefined] as const;

/** A random state: titles with case and accents, null and missing values, a number, a flag, a secret. */
function state(rnd: () => number, id: number): Record<string, unknown> {
  const s: Record<string, unknown> = { id, n: rnd() < 0.15 ? null : Math.floor(rnd() * 8) - 2, flag: rnd() < 0.5, secret: Math.floor(rnd() * 5) };
  const title = pick(rnd, TITLES);
  if (title !== undefined) s.title = title;
  if (rnd() < 0.3) s.at = at(Math.floor(rnd() * 120));
  return s;
}

/** Items created, updated, deleted and created again at random minutes (some after every time asked). */
async function seed(h: Harness, collection: string, rnd: () => number, items: number): Promise<void> {
  const events = [];
  for (let i = 0; i < items; i++) {
    let minute = Math.floor(rnd() * 100);
    let alive = false;
    const changes = 1 + Math.floor(rnd() * 5);
    for (let c = 0, version = 1; c < changes; c++, minute += 1 + Math.floor(rnd() * 20)) {
      const action: 'create' | 'update' | 'delete' = !alive ? 'create' : rnd() < 0.2 ? 'delete' : 'update';
      const data = action === 'delete' ? null : state(rnd, i + 1);
      events.push(itemEvent({ collection, item: String(i + 1), action, data, delta: data, at: at(minute), item_version: version++ }));
      alive = action !== 'delete';
    }
  }
  await h.writer.write(events);
}

/** A random list shape of the ones sql-lists.ts answers. */
function shape(rnd: () => number): Record<string, unknown> {
  const q: Record<string, unknown> = { limit: pick(rnd, [1, 5, 25, -1]) };
  if (rnd() < 0.7) q.sort = pick(rnd, ['title', '-title', 'n', '-n', 'flag,-n', '-at', 'id', '-id', 'n,title']);
  if (rnd() < 0.4) q.offset = Math.floor(rnd() * 20);
  else if (rnd() < 0.2) q.page = 1 + Math.floor(rnd() * 3);
  if (rnd() < 0.4) q.meta = pick(rnd, ['total_count', 'filter_count', '*']);
  if (rnd() < 0.6) {
    const filters = [
      { n: { _gte: String(Math.floor(rnd() * 6) - 2) } },
      { n: { _lt: Math.floor(rnd() * 6) } },
      { n: { _between: '0,3' } },
      { n: { _nbetween: [1, 2] } },
      { n: { _in: '1,2,x' } },
      { n: { _nin: [0, 4] } },
      { n: { _null: true } },
      { title: { _eq: pick(rnd, ['beta', 'été', 'x']) } },
      { title: { _neq: 'alpha' } },
      { title: { _gt: 'b' } },
      { title: { _lte: 'Ça' } },
      { title: { _icontains: pick(rnd, ['ET', 'a', 'ç']) } },
      { title: { _nstarts_with: 'b' } },
      { title: { _ends_with: 'a' } },
      { title: { _niends_with: 'A' } },
      { title: { _empty: true } },
      { title: { _nempty: 'true' } },
      { flag: { _eq: 'true' } },
      { flag: { _neq: 1 } },
      { at: { _lt: '$NOW(-30 minutes)' } },
      { _or: [{ n: { _gt: 3 } }, { title: { _contains: 'am' } }] },
      { _and: [{ flag: { _eq: false } }, { n: { _nnull: true } }] },
    ];
    q.filter = pick(rnd, filters);
  }
  return q;
}

describe('a list as it was, in one statement', () => {
  let h: Harness;
  let sql: AsOfReader;
  let general: AsOfReader;
  beforeAll(async () => {
    h = await createHarness();
    sql = new AsOfReader(h.pool, rules, limits, now, 'sql');
    general = new AsOfReader(h.pool, rules, limits, now, 'general');
    await seed(h, 'c', prng(7), 80);
    // `k`: the role cannot read `id` (no key order: the revision's)
    await seed(h, 'k', prng(8), 30);
  });
  afterAll(() => h.close());

  it.each([
    ['admin', admin, 'c', 11, ['id', 'title', 'n', 'flag', 'at']],
    ['a restricted role', editor, 'c', 12, ['id', 'title', 'n', 'flag']],
    ['a role that cannot read id', editor, 'k', 13, ['title', 'n']],
  ])('answers as the general path on a random history (%s)', async (_, acc, collection, s, readable) => {
    const rnd = prng(s);
    const rebuilt = jest.spyOn(asOfRepository, 'collectionAt');
    for (let i = 0; i < 150; i++) {
      const time = new Date(at(Math.floor(rnd() * 150) - 10));
      const query = shape(rnd);
      rebuilt.mockClear();
      const a = await outcome(sql.list(acc, collection, time, query));
      const inSql = rebuilt.mock.calls.length === 0;
      const b = await outcome(general.list(acc, collection, time, query));
      expect({ query, time, got: a }).toEqual({ query, time, got: b });
      // the statement answers unless a value is odd for SQL (the titles' accents under a case-insensitive filter) or
      // the filter names a field the role cannot read (refused, or no state to refuse it on: the general path's answer)
      const filter = JSON.stringify(query.filter ?? {});
      const hidden = ['id', 'flag', 'at'].some((f) => filter.includes(`"${f}"`) && !readable.includes(f));
      if (!/_n?i(contains|starts_with|ends_with)/.test(filter) && !hidden && !a.error) expect({ query, inSql }).toEqual({ query, inSql: true });
    }
    rebuilt.mockRestore();
  });

  it('refuses what the general path refuses: a hidden field in a filter, an unknown operator', async () => {
    const time = new Date(at(200));
    for (const query of [{ filter: { secret: { _eq: 1 } } }, { filter: { n: { _foo: 1 } } }, { sort: 'secret' }]) {
      const [a, b] = [await outcome(sql.list(editor, 'c', time, query)), await outcome(general.list(editor, 'c', time, query))];
      expect(a).toEqual(b);
      expect(a.error).toBeDefined();
    }
  });

  it('answers 410 as the general path when an item’s older history is gone', async () => {
    await h.writer.write([
      itemEvent({ collection: 'gone', item: '1', action: 'create', data: { id: 1, n: 1 }, at: at(10), item_version: 1 }),
      itemEvent({ collection: 'gone', item: '2', action: 'update', data: { id: 2, n: 3 }, at: at(20) }),
    ]);
    for (const minute of [5, 15, 25])
      for (const query of [{ sort: '-n' }, { meta: 'total_count' }, { filter: { n: { _gt: 0 } }, sort: 'n' }]) {
        const [a, b] = [
          await outcome(sql.list(admin, 'gone', new Date(at(minute)), query)),
          await outcome(general.list(admin, 'gone', new Date(at(minute)), query)),
        ];
        expect({ minute, query, a }).toEqual({ minute, query, a: b });
        expect(a.error ?? '').toMatch(minute < 20 ? /pruned|retention|410|history/i : /^$/);
      }
  });

  it('answers as the general path for states stored compressed or out of line, an empty state and a deleted item', async () => {
    // each state is read decompressed once in the statement (as-of-list.repository.ts): large states, as PostgreSQL
    // stores them (compressed in the row, or out of line), an object with no member and a deletion are its edges
    const body = (i: number, kind: number) => (kind === 0 ? `${'lorem ipsum '.repeat(400)}${i}` : randomBytes(3000).toString('base64'));
    const events = [];
    for (let i = 1; i <= 12; i++) {
      const data = i === 5 ? {} : { id: i, n: i % 4, title: `t${i}`, body: body(i, i % 2) };
      events.push(itemEvent({ collection: 'big', item: String(i), action: 'create', data, at: at(i), item_version: 1 }));
    }
    events.push(itemEvent({ collection: 'big', item: '7', action: 'delete', data: null, at: at(20), item_version: 2 }));
    await h.writer.write(events);
    const stored = await h.pool.query<{ n: string }>(
      `SELECT count(*) AS n FROM revisions WHERE collection = 'big' AND pg_column_size(data) < octet_length(data::text) / 2`,
    );
    expect(Number(stored.rows[0]!.n)).toBeGreaterThanOrEqual(6);
    const rebuilt = jest.spyOn(asOfRepository, 'collectionAt');
    for (const minute of [6, 30])
      for (const query of [
        { sort: '-n', meta: '*' },
        { filter: { n: { _gte: 1 } }, sort: 'title' },
        { sort: 'n', offset: 3, limit: 4 },
      ]) {
        const [a, b] = [await sql.list(admin, 'big', new Date(at(minute)), query), await general.list(admin, 'big', new Date(at(minute)), query)];
        expect({ minute, query, a }).toEqual({ minute, query, a: b });
      }
    expect(rebuilt).toHaveBeenCalledTimes(6); // the general path's six reads only
    rebuilt.mockRestore();
  });

  it('takes the general path when a sorted field holds values of two JSON types', async () => {
    const time = new Date(at(10));
    await h.writer.write([
      itemEvent({ collection: 'mixed', item: '1', action: 'create', data: { id: 1, v: 10 }, at: at(1), item_version: 1 }),
      itemEvent({ collection: 'mixed', item: '2', action: 'create', data: { id: 2, v: '9' }, at: at(2), item_version: 1 }),
      itemEvent({ collection: 'mixed', item: '3', action: 'create', data: { id: 3, v: 'abc' }, at: at(3), item_version: 1 }),
    ]);
    const rebuilt = jest.spyOn(asOfRepository, 'collectionAt');
    const [a, b] = [await sql.list(admin, 'mixed', time, { sort: 'v' }), await general.list(admin, 'mixed', time, { sort: 'v' })];
    expect(a).toEqual(b);
    expect(rebuilt).toHaveBeenCalledTimes(2);
    rebuilt.mockRestore();
  });
});
