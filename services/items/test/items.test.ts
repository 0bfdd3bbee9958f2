import request from 'supertest';
import { harness, articlesCollection, type Harness } from './helpers';
import { errorCode } from '@vellum/testing';

let h: Harness;
const auth = () => ({ Authorization: `Bearer ${h.admin}` });
beforeAll(async () => {
  h = await harness();
  const r = await request(h.app).post('/collections').set(auth()).send(articlesCollection());
  expect(r.status).toBe(200);
});
afterAll(() => h.close());

describe('items CRUD', () => {
  let id: number;

  it('creates one item and answers it with every type in its API form', async () => {
    const r = await request(h.app)
      .post('/items/articles')
      .set(auth())
      .send({
        title: 'Hello',
        body: 'First',
        rating: 4.5,
        price: '12.5',
        big: '9007199254740993',
        ref: 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11',
        extra: { tags: ['a', 'b'], n: 1 },
        day: '2026-02-28',
        local_time: '2026-02-28T10:11:12',
        at: '2026-02-28T10:11:12+02:00',
      });
    expect(r.status).toBe(200);
    id = r.body.data.id;
    expect(r.body.data).toEqual({
      id: expect.any(Number),
      title: 'Hello',
      body: 'First',
      views: 0,
      rating: 4.5,
      price: '12.50',
      big: '9007199254740993',
      published: false,
      ref: 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11',
      extra: { tags: ['a', 'b'], n: 1 },
      day: '2026-02-28',
      local_time: '2026-02-28T10:11:12',
      at: '2026-02-28T08:11:12.000Z',
    });
  });

  it('creates many items from an array and answers them in order', async () => {
    const r = await request(h.app)
      .post('/items/articles')
      .set(auth())
      .send([{ title: 'B', views: 5 }, { title: 'A', views: 7 }, { title: 'C' }]);
    expect(r.status).toBe(200);
    expect(r.body.data.map((i: { title: string }) => i.title)).toEqual(['B', 'A', 'C']);
  });

  it('reads one item, honouring fields; a missing or malformed id is 403', async () => {
    const r = await request(h.app).get(`/items/articles/${id}?fields=id,title`).set(auth());
    expect(r.body).toEqual({ data: { id, title: 'Hello' } });
    expect(errorCode(await request(h.app).get('/items/articles/999999').set(auth()))).toBe('FORBIDDEN');
    expect(errorCode(await request(h.app).get('/items/articles/abc').set(auth()))).toBe('FORBIDDEN');
    expect(errorCode(await request(h.app).get('/items/nothing/1').set(auth()))).toBe('FORBIDDEN');
  });

  it('lists with filter, search, sort, limit, page, meta and aggregate through the query language', async () => {
    const f = await request(h.app)
      .get('/items/articles')
      .query({ filter: JSON.stringify({ views: { _gte: 5 } }), sort: '-views', fields: 'title,views', meta: '*' })
      .set(auth());
    expect(f.body).toEqual({
      data: [
        { title: 'A', views: 7 },
        { title: 'B', views: 5 },
      ],
      meta: { total_count: 4, filter_count: 2 },
    });
    const bracket = await request(h.app).get('/items/articles?filter[title][_eq]=C&fields[]=title').set(auth());
    expect(bracket.body.data).toEqual([{ title: 'C' }]);
    const s = await request(h.app).get('/items/articles?search=hell&fields=title').set(auth());
    expect(s.body.data).toEqual([{ title: 'Hello' }]);
    const p = await request(h.app).get('/items/articles?sort=title&limit=2&page=2&fields=title').set(auth());
    expect(p.body.data).toEqual([{ title: 'C' }, { title: 'Hello' }]);
    const a = await request(h.app).get('/items/articles?aggregate[sum]=views&aggregate[count]=*').set(auth());
    expect(a.body.data).toEqual([{ sum: { views: 12 }, count: 4 }]);
    const g = await request(h.app).get('/items/articles?aggregate[count]=*&groupBy=published').set(auth());
    expect(g.body.data).toEqual([{ published: false, count: 4 }]);
    expect(errorCode(await request(h.app).get('/items/articles?filter[views][_contains]=1').set(auth()))).toBe('INVALID_QUERY');
    expect(errorCode(await request(h.app).get('/items/articles?limit=abc').set(auth()))).toBe('INVALID_QUERY');
    expect(errorCode(await request(h.app).get('/items/articles?fields=nope').set(auth()))).toBe('FORBIDDEN');
  });

  it('SEARCH takes the query in the body; an unknown key there → 400 INVALID_PAYLOAD, meta=<unknown> → 400 INVALID_QUERY (issue 17.3)', async () => {
    const search = (body: object) => request(h.app).search('/items/articles').set(auth()).send(body);
    const ok = await search({ query: { filter: { views: { _gte: 5 } }, sort: ['-views'], fields: ['title'] } });
    expect(ok.body).toEqual({ data: [{ title: 'A' }, { title: 'B' }] });
    expect(errorCode(await search({ filter: { views: { _gte: 5 } } }))).toBe('INVALID_PAYLOAD');
    expect(errorCode(await search({ query: { filtr: { views: { _gte: 5 } } } }))).toBe('INVALID_PAYLOAD');
    expect(errorCode(await search({ query: { meta: 'count' } }))).toBe('INVALID_QUERY');
    expect(errorCode(await request(h.app).get('/items/articles?meta=count').set(auth()))).toBe('INVALID_QUERY');
  });

  it('updates one item and answers the updated item', async () => {
    const r = await request(h.app).patch(`/items/articles/${id}`).set(auth()).send({ title: 'Hello again', views: 3 });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ id, title: 'Hello again', views: 3, body: 'First' });
  });

  it('updates many items with {keys, data} and with an array of items', async () => {
    const list = await request(h.app).get('/items/articles?filter[title][_in]=A,B&fields=id').set(auth());
    const keys = list.body.data.map((i: { id: number }) => i.id);
    const r = await request(h.app)
      .patch('/items/articles')
      .set(auth())
      .send({ keys, data: { published: true } });
    expect(r.status).toBe(200);
    expect(r.body.data.map((i: { published: boolean }) => i.published)).toEqual([true, true]);
    const arr = await request(h.app)
      .patch('/items/articles')
      .set(auth())
      .send(keys.map((k: number, i: number) => ({ id: k, views: 100 + i })));
    expect(arr.body.data.map((i: { views: number }) => i.views)).toEqual([100, 101]);
  });

  it('refuses unknown fields (400 INVALID_PAYLOAD) and wrong types (400 FAILED_VALIDATION) without writing', async () => {
    const before = (await h.outbox()).length;
    const cases: [object, string, string?][] = [
      [{ title: 'x', nope: 1 }, 'INVALID_PAYLOAD'],
      [{ title: 5 }, 'FAILED_VALIDATION', 'title'],
      [{ title: 'x', views: 1.5 }, 'FAILED_VALIDATION', 'views'],
      [{ title: 'x', views: 'many' }, 'FAILED_VALIDATION', 'views'],
      [{ title: 'x', published: 'yes' }, 'FAILED_VALIDATION', 'published'],
      [{ title: 'x', ref: 'not-a-uuid' }, 'FAILED_VALIDATION', 'ref'],
      [{ title: 'x', day: '2026-02-30' }, 'FAILED_VALIDATION', 'day'],
      [{ title: 'x', at: 'yesterday' }, 'FAILED_VALIDATION', 'at'],
      [{ title: 'x', price: 'cheap' }, 'FAILED_VALIDATION', 'price'],
      [{ title: 'x', big: 1.5 }, 'FAILED_VALIDATION', 'big'],
      [{ title: 'x'.repeat(81) }, 'FAILED_VALIDATION', 'title'],
      [{ title: null }, 'FAILED_VALIDATION', 'title'],
      [{ body: 'no title' }, 'FAILED_VALIDATION', 'title'],
      [{ title: 'x', price: '123456789.5' }, 'FAILED_VALIDATION'],
      [{ title: 'x', extra: { note: 'a\u0000b' } }, 'FAILED_VALIDATION', 'extra'], // jsonb cannot hold NUL (was a 500)
    ];
    for (const [body, expected, field] of cases) {
      const r = await request(h.app).post('/items/articles').set(auth()).send(body);
      expect([body, r.status, errorCode(r)]).toEqual([body, 400, expected]);
      if (field) expect(r.body.errors[0].extensions.field).toBe(field);
    }
    // one bad item in an array: nothing of the array is written
    const arr = await request(h.app)
      .post('/items/articles')
      .set(auth())
      .send([{ title: 'ok' }, { title: 7 }]);
    expect(errorCode(arr)).toBe('FAILED_VALIDATION');
    const patch = await request(h.app).patch(`/items/articles/${id}`).set(auth()).send({ views: 'x' });
    expect(errorCode(patch)).toBe('FAILED_VALIDATION');
    const patchUnknown = await request(h.app).patch(`/items/articles/${id}`).set(auth()).send({ nope: 1 });
    expect(errorCode(patchUnknown)).toBe('INVALID_PAYLOAD');
    expect(
      errorCode(
        await request(h.app)
          .patch(`/items/articles/${id}`)
          .set(auth())
          .send({ id: id + 1000 }),
      ),
    ).toBe('INVALID_PAYLOAD');
    expect(errorCode(await request(h.app).patch('/items/articles/999999').set(auth()).send({ title: 'x' }))).toBe('FORBIDDEN');
    expect(errorCode(await request(h.app).post('/items/articles').set(auth()).send('"text"').type('json'))).toBe('INVALID_PAYLOAD');
    expect((await h.outbox()).length).toBe(before);
    const count = await request(h.app).get('/items/articles?aggregate[count]=*').set(auth());
    expect(count.body.data[0].count).toBe(4);
  });

  it('deletes one item (204) and many by keys; a missing key is 403 and deletes nothing', async () => {
    expect((await request(h.app).delete(`/items/articles/${id}`).set(auth())).status).toBe(204);
    expect(errorCode(await request(h.app).get(`/items/articles/${id}`).set(auth()))).toBe('FORBIDDEN');
    expect(errorCode(await request(h.app).delete(`/items/articles/${id}`).set(auth()))).toBe('FORBIDDEN');
    const keys = (await request(h.app).get('/items/articles?fields=id').set(auth())).body.data.map((i: { id: number }) => i.id);
    expect(keys).toHaveLength(3);
    expect(
      errorCode(
        await request(h.app)
          .delete('/items/articles')
          .set(auth())
          .send([...keys, 999999]),
      ),
    ).toBe('FORBIDDEN');
    expect((await request(h.app).get('/items/articles?fields=id').set(auth())).body.data).toHaveLength(3);
    expect(
      (
        await request(h.app)
          .delete('/items/articles')
          .set(auth())
          .send({ keys: keys.slice(0, 2) })
      ).status,
    ).toBe(204);
    expect((await request(h.app).delete('/items/articles').set(auth()).send(keys.slice(2))).status).toBe(204);
    expect((await request(h.app).get('/items/articles').set(auth())).body.data).toEqual([]);
  });
});
