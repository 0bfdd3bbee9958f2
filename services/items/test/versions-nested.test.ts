import request from 'supertest';
import { harness, type Harness } from './helpers';
import { createSchema } from './schema-fixtures';

// Issue 36 with the data model: nested relational data in a version's saves. Saves accumulate as a person saving
// twice means them (one-to-many creates of both saves kept, updates of one child merged, a many-to-one object of
// another row replacing), and the delta a caller sees is cut to what it may read at every level.
let h: Harness;
const bearer = (t: string) => ({ Authorization: `Bearer ${t}` });
const get = (url: string, token = h.admin) => request(h.app).get(url).set(bearer(token));
const post = (url: string, body: object, token = h.admin) => request(h.app).post(url).set(bearer(token)).send(body);
let article: number;
let keep: number;
let drop: number;

beforeAll(async () => {
  h = await harness();
  await createSchema(h, { authors: 'name:string,bio:text', articles: 'title:string,author:integer', comments: 'body:text,secret:string,article:integer' }, [
    { collection: 'articles', field: 'author', related_collection: 'authors' },
    { collection: 'comments', field: 'article', related_collection: 'articles', meta: { one_field: 'comments', one_deselect_action: 'delete' } },
  ]);
  await request(h.app)
    .patch('/collections/articles')
    .set(bearer(h.admin))
    .send({ meta: { versioning: true } })
    .expect(200);
  const a = await post('/items/articles', { title: 'live', author: { name: 'Ann' }, comments: [{ body: 'keep' }, { body: 'drop' }] }).expect(200);
  article = a.body.data.id;
  const comments = (await get(`/items/comments?sort=id`).expect(200)).body.data as { id: number; body: string }[];
  keep = comments.find((c) => c.body === 'keep')!.id;
  drop = comments.find((c) => c.body === 'drop')!.id;
  await h.grant('reader', { articles: { read: ['*'] }, authors: { read: ['id'] }, comments: { read: ['id', 'body', 'article'] } });
  await h.grant('nocomments', { articles: { read: ['*'] }, authors: { read: ['*'] } });
});
afterAll(() => h.close());

it('two saves of one-to-many changes accumulate, and the promote writes both', async () => {
  const v = (await post('/versions', { key: 'two', collection: 'articles', item: article }).expect(200)).body.data;
  await post(`/versions/${v.id}/save`, { comments: { create: [{ body: 'first new' }], update: [{ id: keep, body: 'kept, edited' }], delete: [] } }).expect(200);
  await post(`/versions/${v.id}/save`, { comments: { create: [{ body: 'second new' }], update: [{ id: keep, secret: 's' }], delete: [drop] } }).expect(200);
  expect((await get(`/versions/${v.id}`).expect(200)).body.data.delta).toEqual({
    comments: { create: [{ body: 'first new' }, { body: 'second new' }], update: [{ id: keep, body: 'kept, edited', secret: 's' }], delete: [drop] },
  });
  const hash = (await get(`/versions/${v.id}/compare`).expect(200)).body.data.mainHash;
  await post(`/versions/${v.id}/promote`, { mainHash: hash }).expect(200);
  const now = (await get(`/items/comments?sort=id&fields=id,body,secret&filter[article][_eq]=${article}`).expect(200)).body.data;
  expect(now.map((c: { body: string }) => c.body)).toEqual(['kept, edited', 'first new', 'second new']);
  expect(now[0]).toEqual({ id: keep, body: 'kept, edited', secret: 's' });
});

it('a many-to-one object merges into the same related row; a new row (no key) replaces another row', async () => {
  const v = (await post('/versions', { key: 'author', collection: 'articles', item: article }).expect(200)).body.data;
  await post(`/versions/${v.id}/save`, { author: { id: 1, name: 'Ann, renamed' } }).expect(200);
  await post(`/versions/${v.id}/save`, { author: { id: 1, bio: 'Writes.' } }).expect(200);
  expect((await get(`/versions/${v.id}`)).body.data.delta).toEqual({ author: { id: 1, name: 'Ann, renamed', bio: 'Writes.' } });
  await post(`/versions/${v.id}/save`, { author: { name: 'Someone new' } }).expect(200);
  // not { id: 1, … }: that would rename Ann instead of creating the new author
  expect((await get(`/versions/${v.id}`)).body.data.delta).toEqual({ author: { name: 'Someone new' } });
});

it('cuts nested data to what the caller may read: each related collection’s fields, nothing of an unreadable one', async () => {
  const v = (await post('/versions', { key: 'cut', collection: 'articles', item: article }).expect(200)).body.data;
  await post(`/versions/${v.id}/save`, {
    title: 'draft',
    author: { id: 1, name: 'Hidden name' },
    comments: { create: [{ body: 'visible', secret: 'hidden' }], update: [], delete: [] },
  }).expect(200);
  const reader = h.tokenFor('reader');
  const seen = (await get(`/versions/${v.id}`, reader).expect(200)).body.data.delta;
  expect(seen).toEqual({ title: 'draft', author: { id: 1 }, comments: { create: [{ body: 'visible' }], update: [], delete: [] } });
  expect((await get(`/versions/${v.id}/compare`, reader).expect(200)).body.data.current).toEqual(seen);
  expect(JSON.stringify((await get(`/versions?filter[key][_eq]=cut`, reader).expect(200)).body.data)).not.toContain('hidden');
  const other = (await get(`/versions/${v.id}`, h.tokenFor('nocomments')).expect(200)).body.data.delta;
  expect(other).toEqual({ title: 'draft', author: { id: 1, name: 'Hidden name' } });
});

describe('reading an item in a version (`?version=`): the nested data laid over the related rows the read shows', () => {
  let id: number;
  let c1: number;
  let c2: number;
  let v: { id: string };
  beforeAll(async () => {
    id = (await post('/items/articles', { title: 'read', author: { name: 'Reader' }, comments: [{ body: 'one' }, { body: 'two' }] }).expect(200)).body.data.id;
    const rows = (await get(`/items/comments?sort=id&filter[article][_eq]=${id}`).expect(200)).body.data as { id: number }[];
    [c1, c2] = rows.map((r) => r.id) as [number, number];
    const author = (await get(`/items/articles/${id}?fields=author`).expect(200)).body.data.author as number;
    v = (await post('/versions', { key: 'nested', collection: 'articles', item: id }).expect(200)).body.data;
    await post(`/versions/${v.id}/save`, {
      title: 'read, draft',
      author: { id: author, name: 'Reader, renamed' },
      comments: { create: [{ body: 'three', secret: 'x' }], update: [{ id: c1, body: 'one, edited' }], delete: [c2] },
    }).expect(200);
  });

  it('expanded fields show the version: children changed, added and gone; the related row merged', async () => {
    const r = await get(`/items/articles/${id}?version=nested&fields=title,author.name,comments.id,comments.body`).expect(200);
    expect(r.body.data).toEqual({
      title: 'read, draft',
      // the version's values go over the row as Directus lays them: its keys too (here the author's id)
      author: { id: expect.any(Number), name: 'Reader, renamed' },
      comments: [
        { id: c1, body: 'one, edited' },
        // a created child shows the fields the read asks of the children
        { body: 'three' },
      ],
    });
    // the children's keys are read for the laying even when not asked for (then not shown)
    const bodies = await get(`/items/articles/${id}?version=nested&fields=title,comments.body`).expect(200);
    expect(bodies.body.data).toEqual({ title: 'read, draft', comments: [{ body: 'one, edited' }, { body: 'three' }] });
    // the live item is as it was
    const live = await get(`/items/articles/${id}?fields=title,author.name,comments.body`).expect(200);
    expect(live.body.data).toEqual({ title: 'read', author: { name: 'Reader' }, comments: [{ body: 'one' }, { body: 'two' }] });
  });

  it('fields read as keys stay keys (the version’s links); a reader sees only what it may read', async () => {
    const keys = await get(`/items/articles/${id}?version=nested&fields=id,author,comments`).expect(200);
    expect(keys.body.data).toEqual({ id, author: expect.any(Number), comments: [c1] });
    const reader = await get(`/items/articles/${id}?version=nested&fields=title,comments.*`, h.tokenFor('reader')).expect(200);
    expect(reader.body.data.comments).toEqual([{ id: c1, body: 'one, edited', article: id }, { body: 'three' }]);
    const none = await get(`/items/articles/${id}?version=nested&fields=title,comments.*`, h.tokenFor('nocomments'));
    expect(JSON.stringify(none.body)).not.toContain('three');
  });
});

it('a list in a version lays each versioned item’s nested data over its row; items without that version stay live', async () => {
  const [one, two] = (
    await post('/items/articles', [
      { title: 'list one', comments: [{ body: 'one a' }, { body: 'one b' }] },
      { title: 'list two', comments: [{ body: 'two a' }] },
    ]).expect(200)
  ).body.data.map((r: { id: number }) => r.id) as [number, number];
  const [oneA, oneB] = (await get(`/items/comments?sort=id&filter[article][_eq]=${one}`).expect(200)).body.data.map((c: { id: number }) => c.id);
  const v = (await post('/versions', { key: 'listed', collection: 'articles', item: one }).expect(200)).body.data;
  await post(`/versions/${v.id}/save`, {
    title: 'list one, draft',
    comments: { create: [{ body: 'one c', secret: 'x' }], update: [{ id: oneA, body: 'one a, edited' }], delete: [oneB] },
  }).expect(200);
  const list = async (fields: string, token = h.admin) =>
    (await get(`/items/articles?version=listed&fields=${fields}&filter[id][_in]=${one},${two}&sort=id`, token).expect(200)).body.data;
  expect(await list('title,comments.body')).toEqual([
    { title: 'list one, draft', comments: [{ body: 'one a, edited' }, { body: 'one c' }] },
    { title: 'list two', comments: [{ body: 'two a' }] },
  ]);
  // read as keys: the version's links; the key read for the laying is not shown when not asked for
  expect(await list('title,comments')).toEqual([
    { title: 'list one, draft', comments: [oneA] },
    { title: 'list two', comments: [expect.any(Number)] },
  ]);
  // cut to what the caller may read (the reader has no `secret`)
  expect(await list('title,comments.*', h.tokenFor('reader'))).toEqual([
    { title: 'list one, draft', comments: [{ id: oneA, body: 'one a, edited', article: one }, { body: 'one c' }] },
    { title: 'list two', comments: [{ id: expect.any(Number), body: 'two a', article: two }] },
  ]);
});
