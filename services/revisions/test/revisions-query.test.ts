// GET /revisions: what recording stores, and every query parameter (admin).
import request from 'supertest';
import { signToken } from './helpers';
import { U1, U2 } from './seed';
import { errorCode } from '@vellum/testing';
import { admin, editor, getter, ids, useSeededRevisions } from './revisions-rest-support';

const seeded = useSeededRevisions();
const get = getter(seeded);

describe('recording (what the read tests stand on)', () => {
  it('stores activity + revision with computed deltas, parents and deletes', async () => {
    const r = await get('/revisions?fields=*&sort=id');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      data: [
        {
          id: 1,
          activity: 1,
          collection: 'articles',
          item: '1',
          data: { id: 1, title: 'Hello', body: 'b1', secret: 's1' },
          delta: { id: 1, title: 'Hello', body: 'b1', secret: 's1' },
          parent: null,
          version: null,
        },
        {
          id: 2,
          activity: 2,
          collection: 'articles',
          item: '1',
          data: { id: 1, title: 'Hello 2', body: 'b1', secret: 's2' },
          delta: { title: 'Hello 2', secret: 's2' },
          parent: null,
          version: null,
        },
        {
          id: 3,
          activity: 3,
          collection: 'notes',
          item: '7',
          data: { id: 7, text: 'note 50%_off', private: 'p' },
          delta: { id: 7, text: 'note 50%_off', private: 'p' },
          parent: null,
          version: null,
        },
        { id: 4, activity: 4, collection: 'hidden', item: '3', data: { id: 3, x: 'secret' }, delta: { id: 3, x: 'secret' }, parent: null, version: null },
        {
          id: 5,
          activity: 5,
          collection: 'articles',
          item: '2',
          data: { id: 2, title: 'Second', body: '', secret: 'z' },
          delta: { id: 2, title: 'Second', body: '', secret: 'z' },
          parent: 3,
          version: null,
        },
        { id: 6, activity: 6, collection: 'articles', item: '1', data: null, delta: null, parent: null, version: null },
        {
          id: 7,
          activity: 7,
          collection: 'notes',
          item: '8',
          data: { id: 8, text: 'eight', private: 'q' },
          delta: { text: 'eight', private: 'q' },
          parent: 4,
          version: 'draft',
        },
      ],
    });
  });
  it('records an already-recorded event id once', async () => {
    expect(await seeded().h.writer.write([seeded().events[0]!, seeded().events[1]!])).toEqual(['duplicate', 'duplicate']);
    expect((await get('/revisions?meta=total_count&limit=0')).body).toEqual({ data: [], meta: { total_count: 7 } });
  });
});

describe('GET /revisions query parameters (admin)', () => {
  it('fields: lists, arrays, *, relational expansion, unknown → 403', async () => {
    expect((await get('/revisions?fields=id,item&limit=1')).body.data).toEqual([{ id: 1, item: '1' }]);
    expect((await get('/revisions?fields[]=id&fields[]=collection&limit=1')).body.data).toEqual([{ id: 1, collection: 'articles' }]);
    const a = await get('/revisions?fields=id,activity.*&filter[id][_eq]=1');
    expect(a.body.data).toEqual([
      {
        id: 1,
        activity: {
          id: 1,
          action: 'create',
          user: U1,
          timestamp: '2026-01-01T00:00:00.000Z',
          ip: '10.0.0.1',
          user_agent: 'jest',
          collection: 'articles',
          item: '1',
          origin: 'http://a',
          comment: null,
        },
      },
    ]);
    const p = await get('/revisions?fields=id,parent.*,parent.activity.user&filter[id][_eq]=5');
    expect(p.body.data[0]).toMatchObject({ id: 5, parent: { id: 3, collection: 'notes', item: '7', activity: { user: U2 } } });
    expect((await get('/revisions?fields=id,parent.id&filter[id][_eq]=1')).body.data).toEqual([{ id: 1, parent: null }]);
    const all = await get('/revisions?fields=*.*&limit=1');
    expect(all.body.data[0].activity).toMatchObject({ id: 1, action: 'create' });
    for (const bad of ['nope', 'activity.nope', 'item.x', 'id,__proto__']) expect(errorCode(await get(`/revisions?fields=${bad}`))).toBe('FORBIDDEN');
  });

  it('limit: default, -1, max, 0, invalid', async () => {
    const small = seeded().h.appWith({ QUERY_LIMIT_DEFAULT: 2, QUERY_LIMIT_MAX: 3 });
    const g = (q: string) => request(small.app).get(`/revisions?${q}`).set('Authorization', admin);
    expect(ids(await g(''))).toEqual([1, 2]);
    expect(ids(await g('limit=-1'))).toEqual([1, 2, 3]);
    expect(ids(await g('limit=10'))).toEqual([1, 2, 3]);
    expect(ids(await get('/revisions?limit=-1'))).toHaveLength(7);
    expect((await get('/revisions?limit=0')).body).toEqual({ data: [] });
    for (const bad of ['abc', '-2', '1.5'])
      expect(await get(`/revisions?limit=${bad}`)).toMatchObject({ status: 400, body: { errors: [{ extensions: { code: 'INVALID_QUERY' } }] } });
  });

  it('offset and page (page overrides offset, 0 ignored)', async () => {
    expect(ids(await get('/revisions?limit=2&offset=2'))).toEqual([3, 4]);
    expect(ids(await get('/revisions?limit=2&page=3&offset=1'))).toEqual([5, 6]);
    expect(ids(await get('/revisions?limit=2&page=0&offset=1'))).toEqual([2, 3]);
    expect(errorCode(await get('/revisions?offset=-1'))).toBe('INVALID_QUERY');
    // the deferred join gives the same pages
    const deferred = seeded().h.appWith({ QUERY_DEFERRED_JOIN_OFFSET: 0 });
    const pages = [
      'limit=2&offset=3&sort=-id',
      'limit=3&offset=5',
      'limit=3&offset=6&sort=-id&meta=filter_count',
      'limit=2&offset=9',
      'limit=3&offset=1&sort=-activity.timestamp&fields=id,activity.user',
      'limit=2&offset=1&filter[collection][_eq]=articles',
      'limit=2&offset=3&filter[collection][_in]=articles,notes&meta=*',
      'limit=2&offset=4&sort=collection,-id',
    ];
    for (const auth of [admin, editor])
      for (const q of pages) {
        const a = await get(`/revisions?${q}`, auth);
        const b = await request(deferred.app).get(`/revisions?${q}`).set('Authorization', auth);
        expect({ q, body: b.body }).toEqual({ q, body: a.body });
      }
    expect(ids(await request(deferred.app).get('/revisions?limit=3&offset=5').set('Authorization', admin))).toEqual([6, 7]);
    expect(ids(await request(deferred.app).get('/revisions?limit=2&offset=4&sort=-id').set('Authorization', editor))).toEqual([2, 1]);
  });

  it('sort: default id, -, multi, relational, random, unknown → 403', async () => {
    expect(ids(await get('/revisions'))).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(ids(await get('/revisions?sort=-id'))).toEqual([7, 6, 5, 4, 3, 2, 1]);
    expect(ids(await get('/revisions?sort=collection,-id'))).toEqual([6, 5, 2, 1, 4, 7, 3]);
    expect(ids(await get('/revisions?sort[]=-activity.user&sort[]=id'))).toEqual([7, 3, 4, 1, 2, 5, 6]);
    expect(ids(await get('/revisions?sort=?')).sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(errorCode(await get('/revisions?sort=nope'))).toBe('FORBIDDEN');
    expect(errorCode(await get('/revisions?sort=activity.nope'))).toBe('FORBIDDEN');
  });

  it('filter: string operators', async () => {
    const f = async (q: string) => ids(await get(`/revisions?${q}`));
    expect(await f('filter[collection][_eq]=notes')).toEqual([3, 7]);
    expect(await f('filter[collection][_neq]=articles')).toEqual([3, 4, 7]);
    expect(await f('filter[collection][_contains]=ote')).toEqual([3, 7]);
    expect(await f('filter[collection][_contains]=OTE')).toEqual([]);
    expect(await f('filter[collection][_icontains]=OTE')).toEqual([3, 7]);
    expect(await f('filter[collection][_ncontains]=ote')).toEqual([1, 2, 4, 5, 6]);
    expect(await f('filter[collection][_starts_with]=art')).toEqual([1, 2, 5, 6]);
    expect(await f('filter[collection][_nstarts_with]=art')).toEqual([3, 4, 7]);
    expect(await f('filter[collection][_istarts_with]=ART')).toEqual([1, 2, 5, 6]);
    expect(await f('filter[collection][_nistarts_with]=ART')).toEqual([3, 4, 7]);
    expect(await f('filter[collection][_ends_with]=den')).toEqual([4]);
    expect(await f('filter[collection][_nends_with]=es')).toEqual([4]);
    expect(await f('filter[collection][_iends_with]=DEN')).toEqual([4]);
    expect(await f('filter[collection][_niends_with]=ES')).toEqual([4]);
    expect(await f('filter[collection][_in]=notes,hidden')).toEqual([3, 4, 7]);
    expect(await f('filter[collection][_in][]=notes')).toEqual([3, 7]);
    expect(await f('filter[collection][_nin]=notes,hidden')).toEqual([1, 2, 5, 6]);
    expect(await f('filter[version][_null]=true')).toEqual([1, 2, 3, 4, 5, 6]);
    expect(await f('filter[version][_nnull]=true')).toEqual([7]);
    expect(await f('filter[version][_empty]=true')).toEqual([1, 2, 3, 4, 5, 6]);
    expect(await f('filter[version][_nempty]=true')).toEqual([7]);
    expect(await f('filter[version][_eq]=null')).toEqual([1, 2, 3, 4, 5, 6]);
    // LIKE wildcards in values are literal
    expect(await f('filter[activity][item][_contains]=%')).toEqual([]);
  });

  it('filter: number, date and JSON operators, dynamic values, _and/_or, JSON form', async () => {
    const f = async (q: string) => ids(await get(`/revisions?${q}`));
    expect(await f('filter[id][_eq]=3')).toEqual([3]);
    expect(await f('filter[id][_neq]=3&limit=2')).toEqual([1, 2]);
    expect(await f('filter[id][_lt]=3')).toEqual([1, 2]);
    expect(await f('filter[id][_lte]=3')).toEqual([1, 2, 3]);
    expect(await f('filter[id][_gt]=5')).toEqual([6, 7]);
    expect(await f('filter[id][_gte]=5')).toEqual([5, 6, 7]);
    expect(await f('filter[id][_between]=2,4')).toEqual([2, 3, 4]);
    expect(await f('filter[id][_nbetween][]=2&filter[id][_nbetween][]=6')).toEqual([1, 7]);
    expect(await f('filter[id][_in]=1,7')).toEqual([1, 7]);
    expect(await f('filter[id][_nin]=1,7')).toEqual([2, 3, 4, 5, 6]);
    expect(await f('filter[parent][_null]=false')).toEqual([5, 7]);
    expect(await f('filter[parent][_nnull]=false')).toEqual([1, 2, 3, 4, 6]);
    expect(await f('filter[data][_null]=true')).toEqual([6]);
    expect(await f('filter[delta][_nnull]=true')).toEqual([1, 2, 3, 4, 5, 7]);
    expect(await f('filter[activity][timestamp][_lt]=$NOW(-7 days)')).toEqual([1]);
    expect(await f('filter[activity][timestamp][_gte]=$NOW(-7 days)')).toEqual([2, 3, 4, 5, 6, 7]);
    expect(await f('filter[activity][timestamp][_between]=2026-03-05T00:00:00Z,2026-03-07T00:00:00Z')).toEqual([2, 3, 4]);
    expect(await f('filter[activity][timestamp][_gt]=$NOW')).toEqual([]);
    expect(await f('filter[activity][user][_eq]=$CURRENT_USER')).toEqual([]);
    const mine = await get('/revisions?filter[activity][user][_eq]=$CURRENT_USER', `Bearer ${signToken({ id: U1, role: null, admin_access: true })}`);
    expect(ids(mine)).toEqual([1, 2, 5, 6]);
    expect(await f('filter[activity][action][_eq]=delete')).toEqual([6]);
    expect(await f('filter[parent][collection][_eq]=notes')).toEqual([5]);
    expect(
      await f(
        `filter=${encodeURIComponent(JSON.stringify({ _or: [{ id: { _eq: 1 } }, { _and: [{ collection: { _eq: 'notes' } }, { item: { _eq: '8' } }] }] }))}`,
      ),
    ).toEqual([1, 7]);
    expect(
      await f(`filter=${encodeURIComponent(JSON.stringify({ activity: { _or: [{ action: { _eq: 'delete' } }, { ip: { _eq: '10.0.0.1' } }] } }))}`),
    ).toEqual([1, 6]);
  });

  it('filter errors: 400 for bad values/operators, 403 for unknown fields', async () => {
    const bad400 = [
      'filter[item][_eq]=',
      'filter[id][_in]=',
      `filter=${encodeURIComponent('{"id":{"_in":[]}}')}`,
      'filter[id][_between]=1',
      'filter[id][_between]=1,2,3',
      'filter[id][_contains]=1',
      'filter[data][_eq]=x',
      'filter[item][_lt]=x',
      'filter[id][_eq]=abc',
      'filter[id][_bogus]=1',
      'filter[activity][timestamp][_gt]=yesterday',
      'filter[activity][timestamp][_gt]=$NOW(-3 lightyears)',
      'filter={bad json',
      'filter[id]=1',
      'filter[_and]=1',
    ];
    for (const q of bad400) expect({ q, code: errorCode(await get(`/revisions?${q}`)) }).toEqual({ q, code: 'INVALID_QUERY' });
    for (const q of ['filter[nope][_eq]=1', 'filter[activity][nope][_eq]=1', 'filter[parent][constructor][_eq]=1'])
      expect({ q, code: errorCode(await get(`/revisions?${q}`)) }).toEqual({ q, code: 'FORBIDDEN' });
  });

  it('search: substring on strings, exact on numbers, not in data', async () => {
    expect(ids(await get('/revisions?search=NOTE'))).toEqual([3, 7]);
    expect(ids(await get('/revisions?search=7'))).toEqual([3, 7]);
    expect(ids(await get('/revisions?search=Hello'))).toEqual([]);
    expect(ids(await get('/revisions?search=%25'))).toEqual([]);
  });

  it('meta: total_count, filter_count, * (counts, no scan for collection filters)', async () => {
    expect((await get('/revisions?meta=total_count&limit=1')).body.meta).toEqual({ total_count: 7 });
    expect((await get('/revisions?meta=filter_count&filter[collection][_eq]=articles')).body.meta).toEqual({ filter_count: 4 });
    expect((await get('/revisions?meta=filter_count&filter[collection][_in]=articles,notes')).body.meta).toEqual({ filter_count: 6 });
    expect((await get('/revisions?meta=*&filter[id][_gt]=5')).body.meta).toEqual({ total_count: 7, filter_count: 2 });
    expect((await get('/revisions?meta=*&search=note')).body.meta).toEqual({ total_count: 7, filter_count: 2 });
    expect((await get('/revisions?limit=1')).body.meta).toBeUndefined();
  });

  it('aggregate and groupBy', async () => {
    expect((await get('/revisions?aggregate[count]=*')).body.data).toEqual([{ count: 7 }]);
    expect((await get('/revisions?aggregate[count]=*&groupBy=collection')).body.data).toEqual([
      { collection: 'articles', count: 4 },
      { collection: 'hidden', count: 1 },
      { collection: 'notes', count: 2 },
    ]);
    expect((await get('/revisions?aggregate[countDistinct]=item&aggregate[max]=id&groupBy[]=collection&sort=-collection&limit=1')).body.data).toEqual([
      { collection: 'notes', countDistinct: { item: 2 }, max: { id: 7 } },
    ]);
    expect(
      (await get(`/revisions?aggregate=${encodeURIComponent('{"sum":"id","avg":"id","min":"id","count":"parent"}')}&filter[collection][_eq]=articles`)).body
        .data,
    ).toEqual([{ sum: { id: 14 }, avg: { id: 3.5 }, min: { id: 1 }, count: { parent: 1 } }]);
    expect((await get('/revisions?groupBy=activity.user&aggregate[count]=*&sort=activity.user')).body.data).toEqual([
      { 'activity.user': U1, count: 4 },
      { 'activity.user': U2, count: 2 },
      { 'activity.user': null, count: 1 },
    ]);
    expect(errorCode(await get('/revisions?aggregate[sum]=item'))).toBe('INVALID_QUERY');
    expect(errorCode(await get('/revisions?aggregate[median]=id'))).toBe('INVALID_QUERY');
    expect(errorCode(await get('/revisions?aggregate[count]=nope'))).toBe('FORBIDDEN');
  });

  it('keyset cursor (after) pages like offset', async () => {
    const p1 = await get('/revisions?sort=-id&limit=3&after=&fields=id');
    expect(ids(p1)).toEqual([7, 6, 5]);
    const p2 = await get(`/revisions?sort=-id&limit=3&fields=id&after=${p1.body.meta.next_cursor}`);
    expect(ids(p2)).toEqual([4, 3, 2]);
    const p3 = await get(`/revisions?sort=-id&limit=3&fields=id&after=${p2.body.meta.next_cursor}`);
    expect(ids(p3)).toEqual([1]);
    expect(p3.body.meta.next_cursor).toBeNull();
    expect(errorCode(await get(`/revisions?sort=id&after=${p1.body.meta.next_cursor}`))).toBe('INVALID_QUERY');
  });
});
