import request from 'supertest';
import { errorCode } from '@vellum/testing';
import { harness, type Harness } from './helpers';

// Issue 36 (first slice): /versions — named drafts of one item, saved (deep merge, a revision with `version` set,
// the item untouched), compared (mainHash = the item's version, the same for every caller) and promoted.
let h: Harness;
const bearer = (t: string) => ({ Authorization: `Bearer ${t}` });
const get = (url: string, token = h.admin) => request(h.app).get(url).set(bearer(token));
const post = (url: string, body: object, token = h.admin) => request(h.app).post(url).set(bearer(token)).send(body);
const patch = (url: string, body: object, token = h.admin) => request(h.app).patch(url).set(bearer(token)).send(body);
const del = (url: string, token = h.admin) => request(h.app).delete(url).set(bearer(token));

type Event = { collection: string; item: string; action: string; data: unknown; delta: unknown; version?: string | null; item_version?: number };
const events = async () => (await h.outbox()).map((m) => m.payload as Event).filter((e) => e.collection === 'articles');
let article: number;
let other: number;
let reader: string;
let editor: string;
let titleOnly: string;

beforeAll(async () => {
  h = await harness();
  const fields = [
    { field: 'title', type: 'string' },
    { field: 'body', type: 'text' },
    { field: 'extra', type: 'json' },
  ];
  await post('/collections', { collection: 'articles', meta: { versioning: true }, fields }).expect(200);
  await post('/collections', { collection: 'plain', fields }).expect(200);
  await post('/collections', { collection: 'secret', meta: { versioning: true }, fields }).expect(200);
  article = (await post('/items/articles', { title: 'live', body: 'b', extra: { seo: { a: 1 } } }).expect(200)).body.data.id;
  other = (await post('/items/articles', { title: 'other' }).expect(200)).body.data.id;
  await post('/items/plain', { title: 'p' }).expect(200);
  await post('/items/secret', { title: 's' }).expect(200);
  await h.grant('reader', { articles: { read: ['*'] } });
  await h.grant('editor', { articles: { read: ['*'], update: ['*'] } });
  await h.grant('titleonly', { articles: { read: ['id', 'title'] } });
  reader = h.tokenFor('reader');
  editor = h.tokenFor('editor');
  titleOnly = h.tokenFor('titleonly');
});
afterAll(() => h.close());

describe('creating, reading, renaming and deleting versions', () => {
  it('creates one version (Directus shape, hash = the item version) and several at once', async () => {
    const one = await post('/versions', { key: 'draft', name: 'Draft', collection: 'articles', item: article }).expect(200);
    expect(one.body.data).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      key: 'draft',
      name: 'Draft',
      collection: 'articles',
      item: String(article),
      hash: '1',
      date_created: expect.any(String),
      user_created: expect.any(String),
      date_updated: null,
      user_updated: null,
      delta: null,
      publish_at: null,
      publish_force: false,
      publish_status: null,
      publish_error: null,
    });
    const many = await post('/versions', [
      { key: 'a', collection: 'articles', item: other },
      { key: 'b', collection: 'articles', item: String(other) },
    ]).expect(200);
    expect(many.body.data.map((v: { key: string; name: string | null }) => [v.key, v.name])).toEqual([
      ['a', null],
      ['b', null],
    ]);
  });

  it('refuses reserved keys, a taken key, a collection without versioning, a missing item — nothing created', async () => {
    const count = async () => (await get('/versions?aggregate[count]=*')).body.data[0].count;
    const before = await count();
    for (const key of ['main', 'published']) {
      const r = await post('/versions', { key, collection: 'articles', item: article });
      expect([r.status, errorCode(r)]).toEqual([400, 'INVALID_PAYLOAD']);
    }
    const taken = await post('/versions', [
      { key: 'fresh', collection: 'articles', item: article },
      { key: 'draft', collection: 'articles', item: article },
    ]);
    expect([taken.status, errorCode(taken)]).toEqual([400, 'INVALID_PAYLOAD']);
    expect(taken.body.errors[0].message).toContain('Version "draft" already exists');
    const plain = await post('/versions', { key: 'x', collection: 'plain', item: 1 });
    expect([plain.status, plain.body.errors[0].message]).toEqual([400, 'Invalid payload. Content Versioning is not enabled for collection "plain"']);
    expect((await post('/versions', { key: 'x', collection: 'articles', item: 999 })).status).toBe(403);
    expect(await count()).toBe(before);
    // the same key on another item is free
    await post('/versions', { key: 'draft', collection: 'articles', item: other }).expect(200);
  });

  it('lists with filter, sort and limit; reads one; renames (key and name only); deletes', async () => {
    const list = await get(`/versions?filter[item][_eq]=${other}&sort=-key&limit=2&fields=key,item`).expect(200);
    expect(list.body.data).toEqual([
      { key: 'draft', item: String(other) },
      { key: 'b', item: String(other) },
    ]);
    const v = (await post('/versions', { key: 'temp', collection: 'articles', item: article }).expect(200)).body.data;
    expect((await get(`/versions/${v.id}?fields=key`).expect(200)).body.data).toEqual({ key: 'temp' });
    const renamed = await patch(`/versions/${v.id}`, { key: 'temp2', name: 'Temp' }).expect(200);
    expect(renamed.body.data).toMatchObject({ key: 'temp2', name: 'Temp', user_updated: expect.any(String) });
    expect((await patch(`/versions/${v.id}`, { collection: 'plain' })).status).toBe(400);
    expect((await patch(`/versions/${v.id}`, { key: 'main' })).status).toBe(400);
    expect((await patch(`/versions/${v.id}`, { key: 'draft' })).status).toBe(400); // taken on this item
    await del(`/versions/${v.id}`).expect(204);
    // a deleted (or never made) version is 404 NOT_FOUND for every route and caller: its id is a random uuid
    for (const token of [h.admin, reader, editor]) {
      for (const r of [
        await get(`/versions/${v.id}`, token),
        await get(`/versions/${v.id}/compare`, token),
        await patch(`/versions/${v.id}`, { name: 'n' }, token),
        await patch(`/versions/${v.id}`, { publish_at: new Date().toISOString() }, token),
        await post(`/versions/${v.id}/save`, { title: 't' }, token),
        await post(`/versions/${v.id}/promote`, { mainHash: '1' }, token),
        await del(`/versions/${v.id}`, token),
      ])
        expect([r.status, errorCode(r)]).toEqual([404, 'NOT_FOUND']);
    }
  });

  it('goes with its collection (as in Directus)', async () => {
    const fields = [{ field: 'title', type: 'string' }];
    await post('/collections', { collection: 'doomed', meta: { versioning: true }, fields }).expect(200);
    await post('/items/doomed', { title: 'd' }).expect(200);
    await post('/versions', { key: 'd', collection: 'doomed', item: 1 }).expect(200);
    const of = async () => (await get('/versions?filter[collection][_eq]=doomed&fields=key').expect(200)).body.data;
    expect(await of()).toEqual([{ key: 'd' }]);
    await del('/collections/doomed').expect(204);
    expect(await of()).toEqual([]);
  });

  it('shows a version only to callers who may read its collection; changes need update', async () => {
    const s = (await post('/versions', { key: 'hidden', collection: 'secret', item: 1 }).expect(200)).body.data;
    const keys = async (token: string) =>
      (await get('/versions?fields=collection', token).expect(200)).body.data.map((v: { collection: string }) => v.collection);
    expect(new Set(await keys(reader))).toEqual(new Set(['articles']));
    expect(await keys(h.admin)).toContain('secret');
    expect((await get(`/versions/${s.id}`, reader)).status).toBe(403);
    expect((await post('/versions', { key: 'mine', collection: 'articles', item: article }, reader)).status).toBe(403);
    const mine = (await post('/versions', { key: 'mine', collection: 'articles', item: article }, editor).expect(200)).body.data;
    expect((await patch(`/versions/${mine.id}`, { name: 'n' }, reader)).status).toBe(403);
    expect((await post(`/versions/${mine.id}/save`, { title: 't' }, reader)).status).toBe(403);
    expect((await del(`/versions/${mine.id}`, reader)).status).toBe(403);
    await del(`/versions/${mine.id}`, editor).expect(204);
  });
});

describe('saving to a version', () => {
  it('records a revision with `version` set through the outbox, leaves the item as it was, deep-merges nested saves', async () => {
    const v = (await post('/versions', { key: 'saves', collection: 'articles', item: article }).expect(200)).body.data;
    const itemBefore = await get(`/items/articles/${article}`).expect(200);
    const before = (await events()).length;
    const first = await post(`/versions/${v.id}/save`, { title: 'draft title', extra: { seo: { b: 2 }, tags: ['x'] } }).expect(200);
    // the answer: the item with the version laid over it (as Directus)
    expect(first.body.data).toMatchObject({ id: article, title: 'draft title', body: 'b' });
    await post(`/versions/${v.id}/save`, { extra: { seo: { c: 3 } } }).expect(200);
    const saved = (await events()).slice(before);
    expect(saved).toEqual([
      expect.objectContaining({
        item: String(article),
        action: 'update',
        version: v.id,
        data: { title: 'draft title', extra: { seo: { b: 2 }, tags: ['x'] } },
      }),
      expect.objectContaining({
        item: String(article),
        action: 'update',
        version: v.id,
        data: { extra: { seo: { c: 3 } } },
        delta: { extra: { seo: { c: 3 } } },
      }),
    ]);
    expect(saved.every((e) => e.item_version === undefined)).toBe(true);
    // both nested saves survive (Directus would keep only the second `extra`)
    expect((await get(`/versions/${v.id}`).expect(200)).body.data.delta).toEqual({ title: 'draft title', extra: { seo: { b: 2, c: 3 }, tags: ['x'] } });
    const itemAfter = await get(`/items/articles/${article}`).expect(200);
    expect(itemAfter.body.data).toEqual(itemBefore.body.data);
    expect(itemAfter.headers.etag).toBe(itemBefore.headers.etag);
  });

  it('concurrent saves to one version take turns: every nested key survives', async () => {
    const v = (await post('/versions', { key: 'race', collection: 'articles', item: article }).expect(200)).body.data;
    await Promise.all(Array.from({ length: 8 }, (_, i) => post(`/versions/${v.id}/save`, { extra: { seo: { [`k${i}`]: i } } }).expect(200)));
    const seo = (await get(`/versions/${v.id}`).expect(200)).body.data.delta.extra.seo;
    expect(seo).toEqual(Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`k${i}`, i])));
  });

  it('refuses a field the collection does not have or a value of the wrong type, nothing saved', async () => {
    const v = (await post('/versions', { key: 'bad', collection: 'articles', item: article }).expect(200)).body.data;
    const before = (await events()).length;
    expect((await post(`/versions/${v.id}/save`, { nope: 1 })).status).toBe(400);
    const badType = await post(`/versions/${v.id}/save`, { title: { not: 'a string' } });
    expect([badType.status, errorCode(badType)]).toEqual([400, 'FAILED_VALIDATION']);
    expect((await events()).length).toBe(before);
    expect((await get(`/versions/${v.id}`)).body.data.delta).toBeNull();
  });

  it('refuses a changed primary key (400) and an item deleted since (403), nothing saved — both were stored before', async () => {
    const doomed = (await post('/items/articles', { title: 'doomed' }).expect(200)).body.data.id;
    const v = (await post('/versions', { key: 'gone', collection: 'articles', item: doomed }).expect(200)).body.data;
    const before = (await events()).length;
    const key = await post(`/versions/${v.id}/save`, { id: doomed + 1000, title: 'x' });
    expect([key.status, key.body.errors[0].message]).toEqual([400, 'Invalid payload. The primary key "id" can\'t be changed']);
    expect((await post(`/versions/${v.id}/save`, { id: doomed, title: 'own key' })).status).toBe(200);
    const saved = (await events()).length;
    expect(saved).toBe(before + 1);
    await del(`/items/articles/${doomed}`).expect(204);
    const after = (await events()).length;
    const gone = await post(`/versions/${v.id}/save`, { title: 'after the delete' });
    expect([gone.status, errorCode(gone)]).toEqual([403, 'FORBIDDEN']);
    expect((await events()).length).toBe(after);
    expect((await get(`/versions/${v.id}`)).body.data.delta).toEqual({ id: doomed, title: 'own key' });
  });
});

describe('comparing and promoting', () => {
  const fresh = async (key: string) => {
    const id = (await post('/items/articles', { title: `live ${key}`, body: 'kept' }).expect(200)).body.data.id as number;
    const v = (await post('/versions', { key, collection: 'articles', item: id }).expect(200)).body.data;
    await post(`/versions/${v.id}/save`, { title: `draft ${key}`, extra: { n: 1 } }).expect(200);
    return { id, v };
  };

  it('compares: mainHash is the item version (also the ETag), the same for callers who read different fields', async () => {
    const { id, v } = await fresh('cmp');
    const admin = await get(`/versions/${v.id}/compare`).expect(200);
    expect(admin.body.data).toEqual({
      outdated: false,
      mainHash: '1',
      current: { title: 'draft cmp', extra: { n: 1 } },
      main: expect.objectContaining({ id, title: 'live cmp', body: 'kept' }),
    });
    expect(admin.headers.etag).toBe('"1"');
    const limited = await get(`/versions/${v.id}/compare`, titleOnly).expect(200);
    expect(limited.body.data.mainHash).toBe(admin.body.data.mainHash);
    // the delta is cut to what the caller may read
    expect(limited.body.data.current).toEqual({ title: 'draft cmp' });
    expect(limited.body.data.main).toEqual({ id, title: 'live cmp' });
    await patch(`/items/articles/${id}`, { body: 'changed on main' }).expect(200);
    expect((await get(`/versions/${v.id}/compare`).expect(200)).body.data).toMatchObject({ outdated: true, mainHash: '2' });
  });

  it('promotes with the current mainHash as an update recorded as `promote` (its revision has no version)', async () => {
    const { id, v } = await fresh('prm');
    const before = (await events()).length;
    const r = await post(`/versions/${v.id}/promote`, { mainHash: '1' }).expect(200);
    expect(r.body.data).toBe(id);
    expect(r.headers.etag).toBe('"2"');
    expect((await get(`/items/articles/${id}`).expect(200)).body.data).toMatchObject({ title: 'draft prm', body: 'kept', extra: { n: 1 } });
    const [promoted, ...rest] = (await events()).slice(before);
    expect(rest).toEqual([]);
    expect(promoted).toMatchObject({ item: String(id), action: 'promote', item_version: 2, delta: { title: 'draft prm', extra: { n: 1 } } });
    expect(promoted!.version ?? null).toBeNull();
  });

  it('promotes only the named fields, and takes If-Match instead of mainHash', async () => {
    const { id, v } = await fresh('fld');
    await request(h.app)
      .post(`/versions/${v.id}/promote`)
      .set(bearer(h.admin))
      .set('If-Match', '"1"')
      .send({ fields: ['title'] })
      .expect(200);
    expect((await get(`/items/articles/${id}`).expect(200)).body.data).toMatchObject({ title: 'draft fld', extra: null });
  });

  it('a stale mainHash (main written since) → 422 VERSION_HASH_MISMATCH with the current hash, nothing applied', async () => {
    const { id, v } = await fresh('stale');
    await patch(`/items/articles/${id}`, { body: 'concurrent' }).expect(200);
    const before = (await events()).length;
    for (const mainHash of ['1', 'not-a-hash']) {
      const r = await post(`/versions/${v.id}/promote`, { mainHash });
      expect([r.status, errorCode(r), r.body.errors[0].extensions.mainHash]).toEqual([422, 'VERSION_HASH_MISMATCH', '2']);
    }
    expect((await get(`/items/articles/${id}`).expect(200)).body.data).toMatchObject({ title: 'live stale', body: 'concurrent' });
    expect((await events()).length).toBe(before);
    expect((await post(`/versions/${v.id}/promote`, {})).status).toBe(400);
    // a caller who may only read cannot promote
    expect((await post(`/versions/${v.id}/promote`, { mainHash: '2' }, reader)).status).toBe(403);
  });
});
