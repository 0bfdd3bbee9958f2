import request from 'supertest';
import { harness, type Harness } from './helpers';
import { blog, createSchema } from './schema-fixtures';

// Directus's nested payload shapes (its "Relational data" documentation) on POST and PATCH /items, against a real
// database: the rows as stored, and the events of the tree with their parent links.
let h: Harness;
const bearer = (t: string) => ({ Authorization: `Bearer ${t}` });
const post = (url: string, body: object, token = h.admin) => request(h.app).post(url).set(bearer(token)).send(body);
const patch = (url: string, body: object, token = h.admin) => request(h.app).patch(url).set(bearer(token)).send(body);
const rows = async (table: string) => (await h.pool.query(`SELECT * FROM content.${table} ORDER BY id`)).rows;
type Event = { id: string; collection: string; item: string; action: string; data: Record<string, unknown> | null; delta: unknown; parent_event?: string };
let seen = 0;
/** The events enqueued since the last call, in outbox order. */
const newEvents = async (): Promise<Event[]> => {
  const all = (await h.outbox()).map((m) => m.payload as Event).filter((e) => !e.collection.startsWith('vellum_'));
  const out = all.slice(seen);
  seen = all.length;
  return out;
};
const byId = (events: Event[]) => new Map(events.map((e) => [e.id, e]));
/** Each event as [collection, item, action, parent's collection.item]. */
const tree = (events: Event[]) => {
  const ids = byId(events);
  return events.map((e) => [e.collection, e.item, e.action, e.parent_event ? `${ids.get(e.parent_event)?.collection}.${ids.get(e.parent_event)?.item}` : null]);
};

beforeAll(async () => {
  h = await harness();
  await createSchema(h, blog.collections, blog.relations);
  await newEvents();
});
afterAll(() => h.close());

describe('nested writes', () => {
  it('creates a tree in one request: m2o object, o2m list, m2m through the junction; each child event names its carrier', async () => {
    const r = await post('/items/articles', {
      title: 'Hello',
      author: { name: 'Ann' },
      comments: [{ body: 'first' }, { body: 'second' }],
      tags: [{ tags_id: { name: 'news' } }],
    });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ id: 1, title: 'Hello', author: 1 });
    expect(await rows('authors')).toEqual([{ id: 1, name: 'Ann' }]);
    expect(await rows('comments')).toEqual([
      { id: 1, body: 'first', article: 1 },
      { id: 2, body: 'second', article: 1 },
    ]);
    expect(await rows('articles_tags')).toEqual([{ id: 1, articles_id: 1, tags_id: 1 }]);
    const events = await newEvents();
    expect(tree(events)).toEqual([
      ['authors', '1', 'create', 'articles.1'],
      ['articles', '1', 'create', null],
      ['comments', '1', 'create', 'articles.1'],
      ['comments', '2', 'create', 'articles.1'],
      ['tags', '1', 'create', 'articles_tags.1'],
      ['articles_tags', '1', 'create', 'articles.1'],
    ]);
    // data is the row as stored (generated keys and the foreign key included)
    expect(events.find((e) => e.collection === 'comments')!.data).toEqual({ id: 1, body: 'first', article: 1 });
  });

  it('updates through a list: objects with keys update, keys link, objects create, left-out children follow one_deselect_action', async () => {
    await post('/items/notes', { text: 'loose' }).expect(200); // note 1, unlinked
    await newEvents();
    const r = await patch('/items/articles/1', {
      comments: [{ id: 1, body: 'first, edited' }, { body: 'third' }],
      notes: [1, { text: 'new note' }],
    });
    expect(r.status).toBe(200);
    // comment 2 was left out: deleted (one_deselect_action delete); note 1 linked, note 2 created
    expect(await rows('comments')).toEqual([
      { id: 1, body: 'first, edited', article: 1 },
      { id: 3, body: 'third', article: 1 },
    ]);
    expect(await rows('notes')).toEqual([
      { id: 1, text: 'loose', article: 1 },
      { id: 2, text: 'new note', article: 1 },
    ]);
    const events = await newEvents();
    expect(tree(events)).toEqual([
      ['comments', '1', 'update', 'articles.1'],
      ['comments', '3', 'create', 'articles.1'],
      ['comments', '2', 'delete', 'articles.1'],
      ['notes', '1', 'update', 'articles.1'],
      ['notes', '2', 'create', 'articles.1'],
      // the root's revision is written although only its children changed: delta {}
      ['articles', '1', 'update', null],
    ]);
    const deleted = events.find((e) => e.action === 'delete')!;
    expect([deleted.data, deleted.delta]).toEqual([{ id: 2, body: 'second', article: 1 }, null]);
    expect(events.at(-1)!.delta).toEqual({});
  });

  it('takes {create, update, delete}: delete unlinks (nullify) or deletes per the relation', async () => {
    const r = await patch('/items/articles/1', { notes: { create: [{ text: 'third note' }], update: [{ id: 2, text: 'edited' }], delete: [1] } });
    expect(r.status).toBe(200);
    expect(await rows('notes')).toEqual([
      { id: 1, text: 'loose', article: null },
      { id: 2, text: 'edited', article: 1 },
      { id: 3, text: 'third note', article: 1 },
    ]);
    expect(tree(await newEvents()).map((e) => e.slice(0, 3))).toEqual([
      ['notes', '3', 'create'],
      ['notes', '2', 'update'],
      ['notes', '1', 'update'],
      ['articles', '1', 'update'],
    ]);
  });

  it('m2o: an object with a key updates the related item, a key links, null unlinks', async () => {
    await patch('/items/articles/1', { author: { id: 1, name: 'Ann B.' } }).expect(200);
    expect(await rows('authors')).toEqual([{ id: 1, name: 'Ann B.' }]);
    expect(tree(await newEvents())).toEqual([
      ['authors', '1', 'update', 'articles.1'],
      ['articles', '1', 'update', null],
    ]);
    await patch('/items/articles/1', { author: null }).expect(200);
    expect((await rows('articles'))[0].author).toBeNull();
    expect(tree(await newEvents())).toEqual([['articles', '1', 'update', null]]);
  });

  it('a write that changes nothing, nested or not, records nothing', async () => {
    await patch('/items/articles/1', { title: 'Hello', notes: [2, 3] }).expect(200);
    expect(await newEvents()).toEqual([]);
  });

  it('checks the caller on every nested collection: 403 names it, nothing written', async () => {
    await h.grant('writers', { articles: { create: ['*'], read: ['*'] }, comments: { create: ['*'] } });
    const writer = h.tokenFor('writers');
    const before = await rows('articles');
    const r = await post('/items/articles', { title: 'x', author: { name: 'Eve' }, comments: [{ body: 'c' }] }, writer);
    expect(r.status).toBe(403);
    expect(r.body.errors[0].message).toBe(`You don't have permission to create items in "authors".`);
    expect(await rows('articles')).toEqual(before);
    expect(await newEvents()).toEqual([]);
    expect((await post('/items/articles', { title: 'ok', comments: [{ body: 'c' }] }, writer)).status).toBe(200);
  });

  it('refuses a tree past MAX_BATCH_MUTATION and a bad shape with 400, nothing written', async () => {
    await newEvents();
    const many = Array.from({ length: 1001 }, (_, i) => ({ body: `c${i}` }));
    const r = await post('/items/articles', { title: 'big', comments: many });
    expect([r.status, r.body.errors[0].message]).toEqual([400, 'Invalid payload. A write may change at most 1000 nested items (MAX_BATCH_MUTATION)']);
    expect((await post('/items/articles', { title: 'bad', comments: 'nope' })).status).toBe(400);
    expect((await patch('/items/articles/1', { comments: { update: [{ body: 'no key' }] } })).status).toBe(400);
    expect(await newEvents()).toEqual([]);
  });
});
