// /revisions/:id, SEARCH, refused writes and tokens; what each role sees.
import request from 'supertest';
import { access, itemEvent, signToken } from './helpers';
import { U1, U2 } from './seed';
import { errorCode } from '@vellum/testing';
import { admin, editor, getter, ids, nobody, useSeededRevisions } from './revisions-rest-support';

const seeded = useSeededRevisions();
const get = getter(seeded);

describe('single revisions, SEARCH and writes', () => {
  it('GET /revisions/:id with fields; missing, non-integer → 403', async () => {
    expect((await get('/revisions/2?fields=id,delta')).body).toEqual({ data: { id: 2, delta: { title: 'Hello 2', secret: 's2' } } });
    expect((await get('/revisions/5?fields=id,activity.action')).body).toEqual({ data: { id: 5, activity: { action: 'create' } } });
    for (const id of ['999', 'abc', '1.5', '-1'])
      expect(await get(`/revisions/${id}`)).toMatchObject({ status: 403, body: { errors: [{ extensions: { code: 'FORBIDDEN' } }] } });
  });
  it('SEARCH /revisions takes the query in the body', async () => {
    const r = await request(seeded().h.app.listener)
      .search('/revisions')
      .set('Authorization', admin)
      .send({ query: { filter: { collection: { _eq: 'notes' } }, fields: ['id', 'item'], sort: ['-id'], meta: '*' } });
    expect(r.body).toEqual({
      data: [
        { id: 7, item: '8' },
        { id: 3, item: '7' },
      ],
      meta: { total_count: 7, filter_count: 2 },
    });
    const bad = await request(seeded().h.app.listener)
      .search('/revisions')
      .set('Authorization', admin)
      .send({ query: { limit: 'x' } });
    expect(errorCode(bad)).toBe('INVALID_QUERY');
  });
  it('SEARCH with an unknown key in the body or in its query → 400 INVALID_PAYLOAD naming it (issue 17.3)', async () => {
    const search = (path: string, body: unknown) =>
      request(seeded().h.app.listener)
        .search(path)
        .set('Authorization', admin)
        .send(body as object);
    for (const path of ['/revisions', '/activity']) {
      const top = await search(path, { filter: { collection: { _eq: 'notes' } } });
      expect([path, top.status, errorCode(top)]).toEqual([path, 400, 'INVALID_PAYLOAD']);
      expect(top.body.errors[0].extensions.reason).toMatch(/"filter" is not allowed/);
      const inner = await search(path, { query: { filtr: { collection: { _eq: 'notes' } } } });
      expect([path, inner.status, errorCode(inner)]).toEqual([path, 400, 'INVALID_PAYLOAD']);
      expect(inner.body.errors[0].extensions.reason).toMatch(/"query.filtr" is not allowed \(the query parameters: fields, filter/);
      // every parameter of the query language is accepted
      expect((await search(path, { query: { fields: ['id'], limit: 1, offset: 0, page: 1, sort: ['id'], search: 'x', meta: '*', after: null } })).status).toBe(
        200,
      );
    }
  });
  it('meta=<unknown> → 400 INVALID_QUERY, in the query string and in a SEARCH body (issue 17.3)', async () => {
    const r = await get('/revisions?meta=nope');
    expect([r.status, errorCode(r)]).toEqual([400, 'INVALID_QUERY']);
    expect(r.body.errors[0].extensions.reason).toBe('Unknown meta "nope": use total_count, filter_count or *.');
    const s = await request(seeded().h.app.listener)
      .search('/revisions')
      .set('Authorization', admin)
      .send({ query: { meta: ['total_count', 'count'] } });
    expect([s.status, errorCode(s)]).toEqual([400, 'INVALID_QUERY']);
  });
  it('writes are not routes', async () => {
    for (const m of ['post', 'patch', 'delete'] as const) {
      const r = await request(seeded().h.app.listener)[m]('/revisions/1').set('Authorization', admin).send({});
      expect(r.status).toBe(404);
      expect(errorCode(r)).toBe('ROUTE_NOT_FOUND');
    }
    expect((await request(seeded().h.app.listener).post('/revisions').send({})).status).toBe(404);
  });
  it('rejects bad tokens and two token transports', async () => {
    const forged = `${admin.slice(0, admin.lastIndexOf('.'))}.${Buffer.alloc(64, 1).toString('base64url')}`;
    expect(errorCode(await get('/revisions', forged))).toBe('INVALID_TOKEN');
    expect(errorCode(await get('/revisions', 'Bearer not-a-jwt'))).toBe('INVALID_CREDENTIALS');
    const both = await request(seeded().h.app.listener)
      .get(`/revisions?access_token=${admin.slice(7)}`)
      .set('Authorization', admin);
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
    expect(r.body).toEqual({
      data: [
        { id: 3, data: { text: 'note 50%_off' } },
        { id: 7, data: { text: 'eight' } },
      ],
      meta: { total_count: 2 },
    });
    expect(await get('/revisions/1', null)).toMatchObject({ status: 403 });
  });

  it('a role that may read nothing gets 200 and an empty list', async () => {
    expect((await get('/revisions?meta=*', nobody)).body).toEqual({ data: [], meta: { total_count: 0, filter_count: 0 } });
    expect((await get('/revisions?aggregate[count]=*', nobody)).body.data).toEqual([{ count: 0 }]);
  });

  it('sees a permission change within a second', async () => {
    const started = Date.now();
    await seeded().h.setRules('r-none', access('r-none', { hidden: { read: ['x'] } }));
    let r = await get('/revisions?fields=id,data', nobody);
    while (r.body.data.length === 0 && Date.now() - started < 1000) r = await get('/revisions?fields=id,data', nobody);
    expect(r.body.data).toEqual([{ id: 4, data: { x: 'secret' } }]);
    expect(Date.now() - started).toBeLessThan(1000);
    await seeded().h.setRules('r-none', access('r-none', {}));
  });

  it('activity: admin or read permission on vellum_activity', async () => {
    const a = await get('/activity?sort=-id&limit=1&meta=total_count');
    expect(a.body).toEqual({
      data: [
        {
          id: 8,
          action: 'login',
          user: U1,
          timestamp: '2026-03-09T13:00:00.000Z',
          ip: '10.0.0.9',
          user_agent: null,
          collection: 'vellum_users',
          item: U1,
          origin: null,
          comment: null,
        },
      ],
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
    await seeded().h.writer.write([
      first,
      itemEvent({ collection: 'shapes', item: '2', action: 'create', data: { a: 1, b: 2, n: null }, at: '2026-03-09T14:01:00.000Z' }),
      itemEvent({
        collection: 'shapes',
        item: '3',
        action: 'create',
        data: [1, { b: 2 }] as unknown as Record<string, unknown>,
        at: '2026-03-09T14:02:00.000Z',
      }),
      itemEvent({ collection: 'shapes', item: '4', action: 'create', data: 'text' as unknown as Record<string, unknown>, at: '2026-03-09T14:03:00.000Z' }),
      itemEvent({ collection: 'shapes', item: '5', action: 'create', data: { b: 1 }, parent_event: first.id, at: '2026-03-09T14:04:00.000Z' }),
    ]);
    await seeded().h.setRules('r-shapes', access('r-shapes', { shapes: { read: ['a', 'n'] } }));
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
    expect((await get('/revisions?fields=item&sort=data&filter[item][_in]=1,2&filter[collection][_eq]=shapes')).body.data).toEqual([
      { item: '2' },
      { item: '1' },
    ]);
    expect((await get('/revisions?fields=item&sort=data&filter[item][_in]=1,2', shaper)).body.data).toEqual([{ item: '1' }, { item: '2' }]);
    expect(await get('/revisions/1', shaper)).toMatchObject({ status: 403 });
  });
});
