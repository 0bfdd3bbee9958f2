import request from 'supertest';
import { errorCode } from '@vellum/testing';
import { harness, type Harness } from './helpers';

// Issue 36 (second slice): reading a version — `GET /items/:c/:id?version=key` and `GET /items/:c?version=key` lay the
// version's delta over the stored rows in the read itself (no write, no row lock, no rollback).
let h: Harness;
const bearer = (t: string) => ({ Authorization: `Bearer ${t}` });
const get = (url: string, token = h.admin) => request(h.app).get(url).set(bearer(token));
const post = (url: string, body: object, token = h.admin) => request(h.app).post(url).set(bearer(token)).send(body);

let a: number; // versioned as "draft" and "other"
let b: number; // versioned as "draft" too
let c: number; // no version
let titleOnly: string;

/** xmin/xmax of the stored row: an UPDATE (even rolled back) or a row lock (FOR UPDATE/SHARE) changes xmax. */
const tuple = async (id: number) =>
  (
    await h.pool.query<{ xmin: string; xmax: string; title: string; rank: number }>(`SELECT xmin::text, xmax::text, title, rank FROM articles WHERE id = $1`, [
      id,
    ])
  ).rows[0];

beforeAll(async () => {
  h = await harness();
  const fields = [
    { field: 'title', type: 'string' },
    { field: 'rank', type: 'integer' },
    { field: 'secret', type: 'string' },
    { field: 'extra', type: 'json' },
  ];
  await post('/collections', { collection: 'articles', meta: { versioning: true }, fields }).expect(200);
  a = (await post('/items/articles', { title: 'alpha', rank: 1, secret: 's-live', extra: { seo: { t: 'x', d: 'y' } } }).expect(200)).body.data.id;
  b = (await post('/items/articles', { title: 'beta', rank: 2, secret: 's-b' }).expect(200)).body.data.id;
  c = (await post('/items/articles', { title: 'gamma', rank: 3 }).expect(200)).body.data.id;
  const draft = (await post('/versions', { key: 'draft', collection: 'articles', item: a }).expect(200)).body.data.id;
  await post(`/versions/${draft}/save`, { title: 'alpha draft', rank: 10, secret: 's-draft', extra: { seo: { t: 'x1', d: 'y1' } } }).expect(200);
  // the delta is the deep merge of the saves (seo.d stays); a JSON column shows the delta's value, as promote writes it
  await post(`/versions/${draft}/save`, { extra: { seo: { t: 'x2' } } }).expect(200);
  const bDraft = (await post('/versions', { key: 'draft', collection: 'articles', item: b }).expect(200)).body.data.id;
  await post(`/versions/${bDraft}/save`, { rank: 0 }).expect(200);
  await post('/versions', { key: 'other', collection: 'articles', item: a }).expect(200); // no saves: delta null
  await h.grant('titleonly', { articles: { read: ['id', 'title', 'rank'] } });
  titleOnly = h.tokenFor('titleonly');
});
afterAll(() => h.close());

describe('one item with ?version', () => {
  it('shows the draft (deep-merged delta) and leaves the stored row untouched: no UPDATE, no lock, same ETag', async () => {
    const live = await get(`/items/articles/${a}`).expect(200);
    const before = await tuple(a);
    const r = await get(`/items/articles/${a}?version=draft`).expect(200);
    expect(r.body.data).toEqual({ id: a, title: 'alpha draft', rank: 10, secret: 's-draft', extra: { seo: { t: 'x2', d: 'y1' } } });
    expect(r.headers.etag).toBeUndefined(); // not the item at its version
    const after = await tuple(a);
    // xmin and xmax unchanged: nothing wrote or locked the row, even in a rolled-back transaction (xmax is the last
    // save's: a save holds the item against a delete, FOR KEY SHARE)
    expect(after).toEqual(before);
    const again = await get(`/items/articles/${a}`).expect(200);
    expect(again.body.data).toEqual(live.body.data);
    expect(again.headers.etag).toBe(live.headers.etag);
  });

  it('applies fields to the versioned state; a version without saves is the live item; main is the live item', async () => {
    expect((await get(`/items/articles/${a}?version=draft&fields=title,extra`).expect(200)).body.data).toEqual({
      title: 'alpha draft',
      extra: { seo: { t: 'x2', d: 'y1' } },
    });
    expect((await get(`/items/articles/${a}?version=other&fields=title`).expect(200)).body.data).toEqual({ title: 'alpha' });
    const main = await get(`/items/articles/${a}?version=main&fields=title`).expect(200);
    expect(main.body.data).toEqual({ title: 'alpha' });
    expect(main.headers.etag).toBeDefined();
  });

  it('an item without a version of that key reads live; an unknown key is 403', async () => {
    expect((await get(`/items/articles/${c}?version=draft&fields=title`).expect(200)).body.data).toEqual({ title: 'gamma' });
    const unknown = await get(`/items/articles/${a}?version=nope`);
    expect(unknown.status).toBe(403);
    expect(errorCode(unknown)).toBe('FORBIDDEN');
  });

  it('a restricted role does not see a hidden field through the version, nor filter on it', async () => {
    const r = await get(`/items/articles/${a}?version=draft`, titleOnly).expect(200);
    expect(r.body.data).toEqual({ id: a, title: 'alpha draft', rank: 10 });
    expect((await get(`/items/articles/${a}?version=draft&fields=secret`, titleOnly)).status).toBe(403);
    expect((await get(`/items/articles?version=draft&filter[secret][_eq]=s-draft`, titleOnly)).status).toBe(403);
  });
});

describe('lists with ?version', () => {
  it('each item with a version of that key shows its versioned state, the others as stored', async () => {
    const before = await tuple(a);
    const r = await get(`/items/articles?version=draft&fields=id,title,rank&sort=id`).expect(200);
    expect(r.body.data).toEqual([
      { id: a, title: 'alpha draft', rank: 10 },
      { id: b, title: 'beta', rank: 0 },
      { id: c, title: 'gamma', rank: 3 },
    ]);
    expect(await tuple(a)).toEqual(before); // not written nor locked
  });

  it('filters and sort apply to the versioned state', async () => {
    const found = await get(`/items/articles?version=draft&filter[title][_eq]=alpha draft&fields=id`).expect(200);
    expect(found.body.data).toEqual([{ id: a }]);
    expect((await get(`/items/articles?filter[title][_eq]=alpha draft&fields=id`).expect(200)).body.data).toEqual([]);
    expect((await get(`/items/articles?version=draft&filter[title][_eq]=alpha&fields=id`).expect(200)).body.data).toEqual([]);
    const sorted = await get(`/items/articles?version=draft&sort=-rank&fields=id`).expect(200);
    expect(sorted.body.data).toEqual([{ id: a }, { id: c }, { id: b }]);
    const live = await get(`/items/articles?sort=-rank&fields=id`).expect(200);
    expect(live.body.data).toEqual([{ id: c }, { id: b }, { id: a }]);
  });

  it('aggregates and counts read the versioned state too; an unknown key is 403', async () => {
    const sum = await get(`/items/articles?version=draft&aggregate[sum]=rank`).expect(200);
    expect(Number(sum.body.data[0].sum.rank)).toBe(10 + 0 + 3);
    const counted = await get(`/items/articles?version=draft&filter[rank][_gte]=3&meta=filter_count&fields=id`).expect(200);
    expect(counted.body.meta.filter_count).toBe(2);
    expect((await get(`/items/articles?version=nope`)).status).toBe(403);
  });

  it('SEARCH takes the version in its URL, the query in its body', async () => {
    const body = { query: { filter: { rank: { _eq: 10 } }, fields: ['id', 'title'] } };
    const r = await request(h.app).search('/items/articles?version=draft').set(bearer(h.admin)).send(body).expect(200);
    expect(r.body.data).toEqual([{ id: a, title: 'alpha draft' }]);
  });
});
