import request from 'supertest';
import { harness, type Harness } from './helpers';
import { errorCode } from '@vellum/testing';

let h: Harness;
const bearer = (t: string) => ({ Authorization: `Bearer ${t}` });
let restricted: string, fieldLimited: string, writer: string;
let ids: number[];

beforeAll(async () => {
  h = await harness();
  const admin = bearer(h.admin);
  await request(h.app)
    .post('/collections')
    .set(admin)
    .send({
      collection: 'posts',
      fields: [
        { field: 'title', type: 'string' },
        { field: 'secret', type: 'string' },
        { field: 'score', type: 'integer' },
      ],
    });
  await request(h.app)
    .post('/collections')
    .set(admin)
    .send({ collection: 'hidden', fields: [{ field: 'x', type: 'string' }] });
  const r = await request(h.app)
    .post('/items/posts')
    .set(admin)
    .send([
      { title: 'a', secret: 's1', score: 1 },
      { title: 'b', secret: 's2', score: 2 },
    ]);
  ids = r.body.data.map((i: { id: number }) => i.id);
  await h.grant('restricted', { hidden: { read: ['*'] } });
  await h.grant('limited', { posts: { read: ['id', 'title'], update: ['title'] } });
  await h.grant('writer', { posts: { create: ['title', 'score'], update: ['*'], delete: ['*'] } });
  await h.grant('public', { posts: { read: ['title'] } });
  restricted = h.tokenFor('restricted');
  fieldLimited = h.tokenFor('limited');
  writer = h.tokenFor('writer');
});
afterAll(() => h.close());

describe('permissions from the access-rules map', () => {
  it('a role that cannot read the collection gets 403 on lists and items (missing and existing look the same)', async () => {
    expect(errorCode(await request(h.app).get('/items/posts').set(bearer(restricted)))).toBe('FORBIDDEN');
    const existing = await request(h.app).get(`/items/posts/${ids[0]}`).set(bearer(restricted));
    const missing = await request(h.app).get('/items/posts/999999').set(bearer(restricted));
    expect([existing.status, missing.status]).toEqual([403, 403]);
    expect(existing.body).toEqual(missing.body);
    expect(errorCode(await request(h.app).post('/items/posts').set(bearer(restricted)).send({ title: 'x' }))).toBe('FORBIDDEN');
    expect(errorCode(await request(h.app).patch(`/items/posts/${ids[0]}`).set(bearer(restricted)).send({ title: 'x' }))).toBe('FORBIDDEN');
    expect(errorCode(await request(h.app).delete(`/items/posts/${ids[0]}`).set(bearer(restricted)))).toBe('FORBIDDEN');
  });

  it('a field-limited role reads only its fields and cannot filter, sort or write outside them', async () => {
    const list = await request(h.app).get('/items/posts').set(bearer(fieldLimited));
    expect(list.body.data).toEqual([
      { id: ids[0], title: 'a' },
      { id: ids[1], title: 'b' },
    ]);
    const one = await request(h.app).get(`/items/posts/${ids[0]}`).set(bearer(fieldLimited));
    expect(one.body.data).toEqual({ id: ids[0], title: 'a' });
    expect(errorCode(await request(h.app).get('/items/posts?fields=secret').set(bearer(fieldLimited)))).toBe('FORBIDDEN');
    expect(errorCode(await request(h.app).get('/items/posts?filter[secret][_eq]=s1').set(bearer(fieldLimited)))).toBe('FORBIDDEN');
    expect(errorCode(await request(h.app).get('/items/posts?sort=score').set(bearer(fieldLimited)))).toBe('FORBIDDEN');
    expect((await request(h.app).get('/items/posts?search=s1').set(bearer(fieldLimited))).body.data).toEqual([]);
    const before = (await h.outbox()).length;
    expect(errorCode(await request(h.app).patch(`/items/posts/${ids[0]}`).set(bearer(fieldLimited)).send({ secret: 'x' }))).toBe('FORBIDDEN');
    expect(errorCode(await request(h.app).patch(`/items/posts/${ids[0]}`).set(bearer(fieldLimited)).send({ title: 'ok', score: 9 }))).toBe('FORBIDDEN');
    expect((await h.outbox()).length).toBe(before);
    const ok = await request(h.app).patch(`/items/posts/${ids[0]}`).set(bearer(fieldLimited)).send({ title: 'a2' });
    expect(ok.body.data).toEqual({ id: ids[0], title: 'a2' });
    const admin = await request(h.app).get(`/items/posts/${ids[0]}`).set(bearer(h.admin));
    expect(admin.body.data).toEqual({ id: ids[0], title: 'a2', secret: 's1', score: 1 });
  });

  it('a role that may write but not read gets 204 from writes; create is limited to its fields', async () => {
    expect(errorCode(await request(h.app).post('/items/posts').set(bearer(writer)).send({ title: 'w', secret: 'no' }))).toBe('FORBIDDEN');
    const created = await request(h.app).post('/items/posts').set(bearer(writer)).send({ title: 'w', score: 3 });
    expect(created.status).toBe(204);
    const events = await h.outbox();
    const last = events[events.length - 1]!.payload as { item: string; data: Record<string, unknown> };
    expect(last.data).toMatchObject({ title: 'w', score: 3, secret: null });
    expect((await request(h.app).delete(`/items/posts/${last.item}`).set(bearer(writer))).status).toBe(204);
  });

  it('the public role (no token) gets only what it is granted', async () => {
    const list = await request(h.app).get('/items/posts');
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([
      { id: ids[0], title: 'a2' },
      { id: ids[1], title: 'b' },
    ]);
    expect(errorCode(await request(h.app).get('/items/hidden'))).toBe('FORBIDDEN');
    expect(errorCode(await request(h.app).post('/items/posts').send({ title: 'anon' }))).toBe('FORBIDDEN');
    expect(errorCode(await request(h.app).delete(`/items/posts/${ids[1]}`))).toBe('FORBIDDEN');
  });

  it('admins may do everything; changes in the map apply at once and a deleted entry removes access', async () => {
    expect((await request(h.app).get('/items/hidden').set(bearer(h.admin))).status).toBe(200);
    await h.grant('restricted', { hidden: { read: ['*'] }, posts: { read: ['score'] } });
    expect((await request(h.app).get('/items/posts?fields=score').set(bearer(restricted))).body.data).toEqual([{ score: 1 }, { score: 2 }]);
    // an invalid entry is ignored: the last good copy keeps serving
    expect(h.rules.apply('restricted', { role: 'restricted', admin: 'yes' })).toBe(false);
    expect((await request(h.app).get('/items/posts?fields=score').set(bearer(restricted))).status).toBe(200);
    h.rules.apply('restricted', undefined);
    expect((await request(h.app).get('/items/posts').set(bearer(restricted))).status).toBe(403);
  });

  it('rejects bad tokens with the contract codes', async () => {
    expect((await request(h.app).get('/items/posts').set(bearer('garbage'))).status).toBe(401);
    const forged = h.tokenFor('limited').slice(0, -4) + 'AAAA';
    expect(errorCode(await request(h.app).get('/items/posts').set(bearer(forged)))).toBe('INVALID_TOKEN');
  });
});
