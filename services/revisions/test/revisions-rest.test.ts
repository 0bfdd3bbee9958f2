import request from 'supertest';
import { access, createHarness, itemEvent, signToken, type Harness } from './helpers';
import { NOW, seed, U1, U2 } from './seed';
import { errorCode } from '@vellum/testing';

let h: Harness;
let events: Awaited<ReturnType<typeof seed>>;
const admin = `Bearer ${signToken({ id: 'admin-user', role: 'r-admin', admin_access: true })}`;
const editor = `Bearer ${signToken({ id: U1, role: 'r-editor' })}`;
const nobody = `Bearer ${signToken({ id: U2, role: 'r-none' })}`;

beforeAll(async () => {
  h = await createHarness(() => NOW);
  events = await seed(h);
});
afterAll(() => h.close());

const get = (path: string, auth: string | null = admin) => {
  const r = request(h.app.app).get(path);
  return auth ? r.set('Authorization', auth) : r;
};
const ids = (r: request.Response) => (r.body.data as { id: number }[]).map((x) => x.id);

describe('recording (what the read tests stand on)', () => {
  it('stores activity + revision with computed deltas, parents and deletes', async () => {
    const r = await get('/revisions?fields=*&sort=id');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      data: [
        { id: 1, activity: 1, collection: 'articles', item: '1', data: { id: 1, title: 'Hello', body: 'b1', secret: 's1' }, delta: { id: 1, title: 'Hello', body: 'b1', secret: 's1' }, parent: null, version: null },
        { id: 2, activity: 2, collection: 'articles', item: '1', data: { id: 1, title: 'Hello 2', body: 'b1', secret: 's2' }, delta: { title: 'Hello 2', secret: 's2' }, parent: null, version: null },
        { id: 3, activity: 3, collection: 'notes', item: '7', data: { id: 7, text: 'note 50%_off', private: 'p' }, delta: { id: 7, text: 'note 50%_off', private: 'p' }, parent: null, version: null },
        { id: 4, activity: 4, collection: 'hidden', item: '3', data: { id: 3, x: 'secret' }, delta: { id: 3, x: 'secret' }, parent: null, version: null },
        { id: 5, activity: 5, collection: 'articles', item: '2', data: { id: 2, title: 'Second', body: '', secret: 'z' }, delta: { id: 2, title: 'Second', body: '', secret: 'z' }, parent: 3, version: null },
        { id: 6, activity: 6, collection: 'articles', item: '1', data: null, delta: null, parent: null, version: null },
        { id: 7, activity: 7, collection: 'notes', item: '8', data: { id: 8, text: 'eight', private: 'q' }, delta: { text: 'eight', private: 'q' }, parent: 4, version: 'draft' },
      ],
    });
  });
  it('records an already-recorded event id once', async () => {
    expect(await h.writer.write([events[0]!, events[1]!])).toEqual(['duplicate', 'duplicate']);
    expect((await get('/revisions?meta=total_count&limit=0')).body).toEqual({ data: [], meta: { total_count: 7 } });
  });
});

describe('GET /revisions query parameters (admin)', () => {
  it('fields: lists, arrays, *, relational expansion, unknown → 403', async () => {
    expect((await get('/revisions?fields=id,item&limit=1')).body.data).toEqual([{ id: 1, item: '1' }]);
    expect((await get('/revisions?fields[]=id&fields[]=collection&limit=1')).body.data).toEqual([{ id: 1, collection: 'articles' }]);
    const a = await get('/revisions?fields=id,activity.*&filter[id][_eq]=1');
    expect(a.body.data).toEqual([
      { id: 1, activity: { id: 1, action: 'create', user: U1, timestamp: '2026-01-01T00:00:00.000Z', ip: '10.0.0.1', user_agent: 'jest', collection: 'articles', item: '1', origin: 'http://a' } },
    ]);
    const p = await get('/revisions?fields=id,parent.*,parent.activity.user&filter[id][_eq]=5');
    expect(p.body.data[0]).toMatchObject({ id: 5, parent: { id: 3, collection: 'notes', item: '7', activity: { user: U2 } } });
    expect((await get('/revisions?fields=id,parent.id&filter[id][_eq]=1')).body.data).toEqual([{ id: 1, parent: null }]);
    const all = await get('/revisions?fields=*.*&limit=1');
    expect(all.body.data[0].activity).toMatchObject({ id: 1, action: 'create' });
    for (const bad of ['nope', 'activity.nope', 'item.x', 'id,__proto__'])
      expect(errorCode(await get(`/revisions?fields=${bad}`))).toBe('FORBIDDEN');
  });

  it('limit: default, -1, max, 0, invalid', async () => {
    const small = h.appWith({ QUERY_LIMIT_DEFAULT: 2, QUERY_LIMIT_MAX: 3 });
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
    const deferred = h.appWith({ QUERY_DEFERRED_JOIN_OFFSET: 0 });
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
    expect(await f(`filter=${encodeURIComponent(JSON.stringify({ _or: [{ id: { _eq: 1 } }, { _and: [{ collection: { _eq: 'notes' } }, { item: { _eq: '8' } }] }] }))}`)).toEqual([1, 7]);
    expect(await f(`filter=${encodeURIComponent(JSON.stringify({ activity: { _or: [{ action: { _eq: 'delete' } }, { ip: { _eq: '10.0.0.1' } }] } }))}`)).toEqual([1, 6]);
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
    expect((await get(`/revisions?aggregate=${encodeURIComponent('{"sum":"id","avg":"id","min":"id","count":"parent"}')}&filter[collection][_eq]=articles`)).body.data).toEqual([
      { sum: { id: 14 }, avg: { id: 3.5 }, min: { id: 1 }, count: { parent: 1 } },
    ]);
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

describe('single revisions, SEARCH and writes', () => {
  it('GET /revisions/:id with fields; missing, non-integer → 403', async () => {
    expect((await get('/revisions/2?fields=id,delta')).body).toEqual({ data: { id: 2, delta: { title: 'Hello 2', secret: 's2' } } });
    expect((await get('/revisions/5?fields=id,activity.action')).body).toEqual({ data: { id: 5, activity: { action: 'create' } } });
    for (const id of ['999', 'abc', '1.5', '-1'])
      expect(await get(`/revisions/${id}`)).toMatchObject({ status: 403, body: { errors: [{ extensions: { code: 'FORBIDDEN' } }] } });
  });
  it('SEARCH /revisions takes the query in the body', async () => {
    const r = await request(h.app.app)
      .search('/revisions')
      .set('Authorization', admin)
      .send({ query: { filter: { collection: { _eq: 'notes' } }, fields: ['id', 'item'], sort: ['-id'], meta: '*' } });
    expect(r.body).toEqual({ data: [{ id: 7, item: '8' }, { id: 3, item: '7' }], meta: { total_count: 7, filter_count: 2 } });
    const bad = await request(h.app.app).search('/revisions').set('Authorization', admin).send({ query: { limit: 'x' } });
    expect(errorCode(bad)).toBe('INVALID_QUERY');
  });
  it('SEARCH with an unknown key in the body or in its query → 400 INVALID_PAYLOAD naming it (issue 17.3)', async () => {
    const search = (path: string, body: unknown) => request(h.app.app).search(path).set('Authorization', admin).send(body as object);
    for (const path of ['/revisions', '/activity']) {
      const top = await search(path, { filter: { collection: { _eq: 'notes' } } });
      expect([path, top.status, errorCode(top)]).toEqual([path, 400, 'INVALID_PAYLOAD']);
      expect(top.body.errors[0].extensions.reason).toMatch(/"filter" is not allowed/);
      const inner = await search(path, { query: { filtr: { collection: { _eq: 'notes' } } } });
      expect([path, inner.status, errorCode(inner)]).toEqual([path, 400, 'INVALID_PAYLOAD']);
      expect(inner.body.errors[0].extensions.reason).toMatch(/"query.filtr" is not allowed \(the query parameters: fields, filter/);
      // every parameter of the query language is accepted
      expect((await search(path, { query: { fields: ['id'], limit: 1, offset: 0, page: 1, sort: ['id'], search: 'x', meta: '*', after: null } })).status).toBe(200);
    }
  });
  it('meta=<unknown> → 400 INVALID_QUERY, in the query string and in a SEARCH body (issue 17.3)', async () => {
    const r = await get('/revisions?meta=nope');
    expect([r.status, errorCode(r)]).toEqual([400, 'INVALID_QUERY']);
    expect(r.body.errors[0].extensions.reason).toBe('Unknown meta "nope": use total_count, filter_count or *.');
    const s = await request(h.app.app).search('/revisions').set('Authorization', admin).send({ query: { meta: ['total_count', 'count'] } });
    expect([s.status, errorCode(s)]).toEqual([400, 'INVALID_QUERY']);
  });
  it('writes are not routes', async () => {
    for (const m of ['post', 'patch', 'delete'] as const) {
      const r = await request(h.app.app)[m]('/revisions/1').set('Authorization', admin).send({});
      expect(r.status).toBe(404);
      expect(errorCode(r)).toBe('ROUTE_NOT_FOUND');
    }
    expect((await request(h.app.app).post('/revisions').send({})).status).toBe(404);
  });
  it('rejects bad tokens and two token transports', async () => {
    const forged = `${admin.slice(0, admin.lastIndexOf('.'))}.${Buffer.alloc(64, 1).toString('base64url')}`;
    expect(errorCode(await get('/revisions', forged))).toBe('INVALID_TOKEN');
    expect(errorCode(await get('/revisions', 'Bearer not-a-jwt'))).toBe('INVALID_CREDENTIALS');
    const both = await request(h.app.app).get(`/revisions?access_token=${admin.slice(7)}`).set('Authorization', admin);
    expect(both.status).toBe(400);
  });
});

describe('who sees what', () => {
  it('a restricted role sees readable collections with data/delta reduced, counted in meta', async () => {
    const r = await get('/revisions?meta=*&fields=id,collection,data,delta', editor);
    expect(r.body).toEqual({
      data: [
        { id: 1, collection: 'articles', data: { id: 1, title: 'Hello' }, delta: { id: 1, title: 'Hello' } },
        { id: 2, collection: 'articles', data: { id: 1, title: 'Hello 2' }, delta: { title: 'Hello 2' } },
        { id: 3, collection: 'notes', data: { id: 7, text: 'note 50%_off', private: 'p' }, delta: { id: 7, text: 'note 50%_off', private: 'p' } },
        { id: 5, collection: 'articles', data: { id: 2, title: 'Second' }, delta: { id: 2, title: 'Second' } },
        { id: 6, collection: 'articles', data: null, delta: null },
        { id: 7, collection: 'notes', data: { id: 8, text: 'eight', private: 'q' }, delta: { text: 'eight', private: 'q' } },
      ],
      meta: { total_count: 6, filter_count: 6 },
    });
    expect((await get('/revisions?meta=filter_count&filter[collection][_in]=hidden,notes', editor)).body).toMatchObject({ meta: { filter_count: 2 } });
    expect((await get('/revisions?meta=filter_count&filter[collection][_eq]=hidden', editor)).body).toEqual({ data: [], meta: { filter_count: 0 } });
    expect(await get('/revisions/4', editor)).toMatchObject({ status: 403 });
    expect((await get('/revisions/2?fields=data', editor)).body).toEqual({ data: { data: { id: 1, title: 'Hello 2' } } });
    // a parent in an unreadable collection looks like no parent
    expect((await get('/revisions?fields=id,parent.id,parent.data&filter[id][_eq]=7', editor)).body.data).toEqual([{ id: 7, parent: null }]);
    expect((await get('/revisions?aggregate[count]=*&groupBy=collection', editor)).body.data).toEqual([
      { collection: 'articles', count: 4 },
      { collection: 'notes', count: 2 },
    ]);
    expect(ids(await get('/revisions?search=hid', editor))).toEqual([]);
  });

  it('the public role (no token) sees only what it may read', async () => {
    const r = await get('/revisions?meta=total_count&fields=id,data', null);
    expect(r.body).toEqual({ data: [{ id: 3, data: { text: 'note 50%_off' } }, { id: 7, data: { text: 'eight' } }], meta: { total_count: 2 } });
    expect(await get('/revisions/1', null)).toMatchObject({ status: 403 });
  });

  it('a role that may read nothing gets 200 and an empty list', async () => {
    expect((await get('/revisions?meta=*', nobody)).body).toEqual({ data: [], meta: { total_count: 0, filter_count: 0 } });
    expect((await get('/revisions?aggregate[count]=*', nobody)).body.data).toEqual([{ count: 0 }]);
  });

  it('sees a permission change within a second', async () => {
    const started = Date.now();
    await h.setRules('r-none', access('r-none', { hidden: { read: ['x'] } }));
    let r = await get('/revisions?fields=id,data', nobody);
    while (r.body.data.length === 0 && Date.now() - started < 1000) r = await get('/revisions?fields=id,data', nobody);
    expect(r.body.data).toEqual([{ id: 4, data: { x: 'secret' } }]);
    expect(Date.now() - started).toBeLessThan(1000);
    await h.setRules('r-none', access('r-none', {}));
  });

  it('activity: admin or read permission on vellum_activity', async () => {
    const a = await get('/activity?sort=-id&limit=1&meta=total_count');
    expect(a.body).toEqual({
      data: [{ id: 8, action: 'login', user: U1, timestamp: '2026-03-09T13:00:00.000Z', ip: '10.0.0.9', user_agent: null, collection: 'vellum_users', item: U1, origin: null }],
      meta: { total_count: 8 },
    });
    expect(ids(await get('/activity?filter[action][_eq]=login&fields=id', editor))).toEqual([8]);
    expect((await get('/activity/1?fields=action', editor)).body).toEqual({ data: { action: 'create' } });
    expect(await get('/activity', null)).toMatchObject({ status: 403 });
    expect(await get('/activity/1', nobody)).toMatchObject({ status: 403 });
  });
});

describe('field reduction edge cases (runs last: adds rows)', () => {
  const shaper = `Bearer ${signToken({ id: U2, role: 'r-shapes' })}`;
  it('keeps readable keys (nulls too), passes non-objects whole, and reduces groups and sorts the same way', async () => {
    const first = itemEvent({ collection: 'shapes', item: '1', action: 'create', data: { a: 1, b: 3, n: null }, at: '2026-03-09T14:00:00.000Z' });
    await h.writer.write([
      first,
      itemEvent({ collection: 'shapes', item: '2', action: 'create', data: { a: 1, b: 2, n: null }, at: '2026-03-09T14:01:00.000Z' }),
      itemEvent({ collection: 'shapes', item: '3', action: 'create', data: [1, { b: 2 }] as unknown as Record<string, unknown>, at: '2026-03-09T14:02:00.000Z' }),
      itemEvent({ collection: 'shapes', item: '4', action: 'create', data: 'text' as unknown as Record<string, unknown>, at: '2026-03-09T14:03:00.000Z' }),
      itemEvent({ collection: 'shapes', item: '5', action: 'create', data: { b: 1 }, parent_event: first.id, at: '2026-03-09T14:04:00.000Z' }),
    ]);
    await h.setRules('r-shapes', access('r-shapes', { shapes: { read: ['a', 'n'] } }));
    const list = await get('/revisions?fields=item,data,delta&sort=item', shaper);
    expect(list.body.data).toEqual([
      { item: '1', data: { a: 1, n: null }, delta: { a: 1, n: null } },
      { item: '2', data: { a: 1, n: null }, delta: { a: 1, n: null } },
      { item: '3', data: [1, { b: 2 }], delta: [1, { b: 2 }] },
      { item: '4', data: 'text', delta: 'text' },
      { item: '5', data: {}, delta: {} },
    ]);
    // a related revision is reduced by its own collection's fields, one record too
    const child = await get('/revisions?fields=item,parent.item,parent.data&filter[item][_eq]=5', shaper);
    expect(child.body.data).toEqual([{ item: '5', parent: { item: '1', data: { a: 1, n: null } } }]);
    const id = (list.body.data as unknown[]).length && (await get('/revisions?fields=id&filter[item][_eq]=1', shaper)).body.data[0].id;
    expect((await get(`/revisions/${id}?fields=data,delta`, shaper)).body.data).toEqual({ data: { a: 1, n: null }, delta: { a: 1, n: null } });
    // two revisions differ only in the unreadable `b`: one group, and the group shows no `b`
    const groups = await get('/revisions?aggregate[count]=*&groupBy=data&filter[item][_in]=1,2', shaper);
    expect(groups.body.data).toEqual([{ data: { a: 1, n: null }, count: 2 }]);
    const admin = await get('/revisions?aggregate[count]=*&groupBy=data&filter[collection][_eq]=shapes&filter[item][_in]=1,2');
    expect(admin.body.data).toHaveLength(2);
    // ordered by the reduced value: items 1 and 2 tie, so the id decides (by the full value, b: 2 < b: 3 would)
    expect((await get('/revisions?fields=item&sort=data&filter[item][_in]=1,2&filter[collection][_eq]=shapes')).body.data).toEqual([{ item: '2' }, { item: '1' }]);
    expect((await get('/revisions?fields=item&sort=data&filter[item][_in]=1,2', shaper)).body.data).toEqual([{ item: '1' }, { item: '2' }]);
    expect(await get('/revisions/1', shaper)).toMatchObject({ status: 403 });
  });
});
