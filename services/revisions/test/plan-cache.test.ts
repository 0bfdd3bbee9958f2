// The planned-query cache (domain/plan-cache.ts): a repeated list is not planned again, yet never answers from a plan
// made for other permissions or for a dynamic value ($CURRENT_USER, $NOW) of another request.
import { PlanCache } from '../src/domain/plan-cache';
import { access, signToken } from './helpers';
import { U1, U2 } from './seed';
import { getter, ids, useSeededRevisions } from './revisions-rest-support';

const seeded = useSeededRevisions();
const get = getter(seeded);

describe('planned-query cache', () => {
  it('follows a change of the role’s permissions (same query text, same role, new rules)', async () => {
    const who = `Bearer ${signToken({ id: U2, role: 'r-cache' })}`;
    const path = '/revisions?fields=id,collection&sort=id';
    await seeded().h.setRules('r-cache', access('r-cache', { articles: { read: ['*'] } }));
    let r = await get(path, who);
    for (let i = 0; i < 50 && r.body.data.length === 0; i++) r = await get(path, who);
    const articles = r.body.data as { collection: string }[];
    expect(articles.length).toBeGreaterThan(0);
    expect(new Set(articles.map((x) => x.collection))).toEqual(new Set(['articles']));
    // planned once more from the cache: the same answer
    expect((await get(path, who)).body).toEqual(r.body);

    await seeded().h.setRules('r-cache', access('r-cache', { notes: { read: ['*'] } }));
    const started = Date.now();
    let after = await get(path, who);
    while (after.body.data.some((x: { collection: string }) => x.collection === 'articles') && Date.now() - started < 2000) after = await get(path, who);
    expect(after.body.data.length).toBeGreaterThan(0);
    expect(new Set(after.body.data.map((x: { collection: string }) => x.collection))).toEqual(new Set(['notes']));
  });

  it('plans a dynamic value for each request: $CURRENT_USER of two users with the same query text', async () => {
    const path = '/revisions?filter[activity][user][_eq]=$CURRENT_USER&fields=id';
    const as = (id: string) => `Bearer ${signToken({ id, role: null, admin_access: true })}`;
    const u1 = ids(await get(path, as(U1)));
    const u2 = ids(await get(path, as(U2)));
    expect(u1.length + u2.length).toBeGreaterThan(0);
    expect(u1).not.toEqual(u2);
    expect(ids(await get(path, as(U1)))).toEqual(u1);
    expect(ids(await get(path.replace('$', '%24'), as(U2)))).toEqual(u2);
  });

  it('keys: no query text with a `$` (plain or percent-encoded) is cached; at most `max` per visibility', () => {
    expect(PlanCache.keyOf('k', 'limit=25&sort=-id')).toBe('k\u0000limit=25&sort=-id');
    for (const t of ['filter[timestamp][_gt]=$NOW(-1 day)', 'filter[user][_eq]=%24CURRENT_USER', 'x=%24', '{"filter":{"user":{"_eq":"$CURRENT_USER"}}}'])
      expect(PlanCache.keyOf('k', t)).toBeUndefined();
    const cache = new PlanCache(2);
    const vis = { all: true } as const;
    const plan = (n: number) => ({ list: () => ({ text: `SELECT ${n}`, values: [] }), count: () => ({ text: 'SELECT 0', values: [] }) }) as never;
    cache.set(vis, 'a', plan(1));
    cache.set(vis, 'b', plan(2));
    expect(cache.get(vis, 'a')).toBeDefined(); // a is now the most recent
    cache.set(vis, 'c', plan(3));
    expect(cache.get(vis, 'b')).toBeUndefined();
    expect(cache.get(vis, 'a')!.list()).toEqual({ text: 'SELECT 1', values: [] }); // not named here: StatementRunner names
    expect(cache.get(vis, 'a')!.list()).toBe(cache.get(vis, 'a')!.list());
    expect(cache.get({ all: true }, 'a')).toBeUndefined(); // another visibility object: another cache
  });
});
