import request from 'supertest';
import { harness, articlesCollection, type Harness } from './helpers';

// Issue 41: a write answers from the rows its statement returned (no read back) unless `fields` is asked for, and
// the same change to many items is one statement. The answers must be what a read right after the write returns.
let h: Harness;
const auth = (t = h.admin) => ({ Authorization: `Bearer ${t}` });
const every = {
  title: 'T',
  body: 'B',
  rating: 1.25,
  price: '3.5',
  big: '9007199254740993',
  ref: 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11',
  extra: { a: [1, 'x'] },
  day: '2026-03-01',
  local_time: '2026-03-01T01:02:03.456',
  at: '2026-03-01T01:02:03.4+01:00',
};

beforeAll(async () => {
  h = await harness();
  await request(h.app).post('/collections').set(auth()).send(articlesCollection()).expect(200);
});
afterAll(() => h.close());

/** The items as GET /items reads them now, in the order of `ids`. */
async function readNow(ids: number[], token = h.admin) {
  const r = await request(h.app)
    .get(`/items/articles?filter[id][_in]=${ids.join(',')}&limit=-1`)
    .set(auth(token));
  const byId = new Map(r.body.data.map((i: { id: number }) => [i.id, i]));
  return ids.map((id) => byId.get(id));
}

describe('a write answers what a read after it returns', () => {
  it('POST (one, many), PATCH one, PATCH {keys, data}, PATCH an array — every type, in request order', async () => {
    const one = await request(h.app).post('/items/articles').set(auth()).send(every).expect(200);
    expect(one.body.data).toEqual((await readNow([one.body.data.id]))[0]);
    const many = await request(h.app)
      .post('/items/articles')
      .set(auth())
      .send([{ title: 'x' }, every, { title: 'y', views: 3 }])
      .expect(200);
    const ids = many.body.data.map((i: { id: number }) => i.id);
    expect(many.body.data).toEqual(await readNow(ids));
    const patched = await request(h.app)
      .patch(`/items/articles/${ids[0]}`)
      .set(auth())
      .send({ ...every, title: 'p' })
      .expect(200);
    expect(patched.body.data).toEqual((await readNow([ids[0]]))[0]);
    const reversed = [...ids].reverse();
    const bulk = await request(h.app)
      .patch('/items/articles')
      .set(auth())
      .send({ keys: reversed, data: { views: 9, at: '2026-01-01T00:00:00Z' } })
      .expect(200);
    expect(bulk.body.data).toEqual(await readNow(reversed));
    const arr = await request(h.app)
      .patch('/items/articles')
      .set(auth())
      .send([
        { id: ids[2], views: 1 },
        { id: ids[1], title: 'z' },
        { id: ids[2], views: 2 },
      ])
      .expect(200);
    // an item written twice by one request answers its final state both times
    expect(arr.body.data).toEqual(await readNow([ids[2], ids[1], ids[2]]));
    expect(arr.body.data[0].views).toBe(2);
  });

  it('a role reading some fields gets only those; `fields` is honoured; no read permission → 204', async () => {
    await h.grant('limited', { articles: { create: ['*'], update: ['*'], read: ['title', 'views'] } });
    await h.grant('blind', { articles: { create: ['*'], update: ['*'] } });
    const limited = h.tokenFor('limited');
    const r = await request(h.app).post('/items/articles').set(auth(limited)).send({ title: 'L', body: 'secret' }).expect(200);
    expect(r.body.data).toEqual({ id: r.body.data.id, title: 'L', views: 0 });
    expect(r.body.data).toEqual((await readNow([r.body.data.id], limited))[0]);
    const f = await request(h.app).patch(`/items/articles/${r.body.data.id}?fields=title`).set(auth(limited)).send({ views: 4 }).expect(200);
    expect(f.body.data).toEqual({ title: 'L' });
    await request(h.app)
      .patch(`/items/articles/${r.body.data.id}`)
      .set(auth(h.tokenFor('blind')))
      .send({ views: 5 })
      .expect(204);
  });

  it('a bulk change with a missing key changes nothing and commits no event (403)', async () => {
    const many = await request(h.app)
      .post('/items/articles')
      .set(auth())
      .send([{ title: 'k1' }, { title: 'k2' }])
      .expect(200);
    const ids = many.body.data.map((i: { id: number }) => i.id);
    const before = (await h.outbox()).length;
    await request(h.app)
      .patch('/items/articles')
      .set(auth())
      .send({ keys: [...ids, 999999], data: { views: 7 } })
      .expect(403);
    expect((await h.outbox()).length).toBe(before);
    expect((await readNow(ids)).map((i) => (i as { views: number }).views)).toEqual([0, 0]);
  });

  it('a collection dropped and created again with other columns is written with its new shape (no stale prepared statement)', async () => {
    const make = (extra: object[]) => ({
      collection: 'shapes',
      fields: [{ field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true } }, { field: 'title', type: 'string' }, ...extra],
    });
    await request(h.app)
      .post('/collections')
      .set(auth())
      .send(make([{ field: 'n', type: 'integer' }]))
      .expect(200);
    const a = await request(h.app).post('/items/shapes').set(auth()).send({ title: 'a' }).expect(200);
    await request(h.app).patch(`/items/shapes/${a.body.data.id}`).set(auth()).send({ title: 'a2' }).expect(200);
    await request(h.app).delete('/collections/shapes').set(auth()).expect(204);
    await request(h.app)
      .post('/collections')
      .set(auth())
      .send(
        make([
          { field: 'flag', type: 'boolean' },
          { field: 'note', type: 'text' },
        ]),
      )
      .expect(200);
    const b = await request(h.app).post('/items/shapes').set(auth()).send({ title: 'b' }).expect(200);
    expect(b.body.data).toEqual({ id: 1, title: 'b', flag: null, note: null });
    const p = await request(h.app).patch(`/items/shapes/${b.body.data.id}`).set(auth()).send({ title: 'b2' }).expect(200);
    expect(p.body.data).toEqual({ id: 1, title: 'b2', flag: null, note: null });
  });
});
