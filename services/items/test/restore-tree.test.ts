import request from 'supertest';
import type { ReadRevision } from '../src/data/revisions-client';
import type { ItemsDeps } from '../src/domain/items-deps';
import { restoreRevision } from '../src/domain/restore-revision.use-case';
import { harness, type Harness } from './helpers';
import { blog, createSchema } from './schema-fixtures';

// A tree restore against a real database, its revisions read from the write's own item-change events (the outbox,
// numbered as the revisions service records them, `parent` from `parent_event`): the rows written in the write's
// order, all in one transaction.
let h: Harness;
let deps: ItemsDeps;
const send = (method: 'post' | 'patch' | 'delete', url: string, body?: object) => {
  const req = method === 'post' ? request(h.app).post(url) : method === 'patch' ? request(h.app).patch(url) : request(h.app).delete(url);
  return req.set({ Authorization: `Bearer ${h.admin}` }).send(body);
};
const rows = async (table: string) => (await h.pool.query(`SELECT * FROM content.${table} ORDER BY id`)).rows;
type Event = { id: string; collection: string; item: string; action: string; data: Record<string, unknown> | null; delta: unknown; parent_event?: string };

/** The history so far as revisions, and a source reading them as the revisions client would. */
async function history() {
  const events = (await h.outbox()).map((m) => m.payload as Event).filter((e) => !e.collection.startsWith('vellum_'));
  const ids = new Map(events.map((e, i) => [e.id, i + 1]));
  const revs: ReadRevision[] = events.map((e, i) => ({
    id: i + 1,
    collection: e.collection,
    item: e.item,
    data: e.data,
    activity: { action: e.action },
    parent: e.parent_event ? (ids.get(e.parent_event) ?? null) : null,
  }));
  const source = {
    revision: async (id: string) => revs[Number(id) - 1]!,
    children: async (of: number[]) => revs.filter((r) => of.includes(r.parent ?? 0)),
  };
  return { revs, events, source };
}
const restore = async (revision: number, dryRun = false) => {
  const { source } = await history();
  const ctx = { accountability: { user: null, role: null, admin: true, app: true }, now: new Date() };
  return restoreRevision(deps, ctx, source, String(revision), {}, dryRun);
};

beforeAll(async () => {
  h = await harness();
  deps = { pool: h.pool, rules: h.rules, now: () => new Date(), limits: { limitDefault: 100 } };
  await createSchema(h, blog.collections, blog.relations);
});
afterAll(() => h.close());

describe('restore a tree', () => {
  it('re-creates a deleted root after the many-to-one row it refers to, and links its children again', async () => {
    const r = await send('post', '/items/articles', { title: 'Hello', author: { name: 'Ann' }, notes: [{ text: 'n' }], tags: [{ tags_id: { name: 'news' } }] });
    expect(r.status).toBe(200);
    const { revs } = await history();
    const root = revs.find((x) => x.collection === 'articles')!;
    // the author (created through the article, its revision first) and the article both deleted since
    await send('delete', '/items/articles/1').expect(204);
    await send('delete', '/items/authors/1').expect(204);
    expect([await rows('articles'), await rows('notes'), await rows('articles_tags')]).toEqual([
      [],
      [{ id: 1, text: 'n', article: null }],
      [{ id: 1, articles_id: null, tags_id: 1 }],
    ]);

    const done = await restore(root.id);
    expect(done).toMatchObject({ action: 'create', applied: true });
    expect(done.children!.map((c) => [c.collection, c.action])).toEqual([
      ['authors', 'create'],
      ['notes', 'update'],
      ['tags', 'none'],
      ['articles_tags', 'update'],
    ]);
    expect(await rows('authors')).toEqual([{ id: 1, name: 'Ann' }]);
    expect(await rows('articles')).toEqual([{ id: 1, title: 'Hello', author: 1 }]);
    expect(await rows('notes')).toEqual([{ id: 1, text: 'n', article: 1 }]);
    expect(await rows('articles_tags')).toEqual([{ id: 1, articles_id: 1, tags_id: 1 }]);
    // the restore's events: one write, each child's parent the root's event, creates and updates recorded as revert
    const { events } = await history();
    const written = events.slice(-4);
    const top = written.find((e) => e.collection === 'articles')!;
    expect(written.map((e) => [e.collection, e.action, e.parent_event ?? null])).toEqual([
      ['authors', 'revert', top.id],
      ['articles', 'revert', null],
      ['notes', 'revert', top.id],
      ['articles_tags', 'revert', top.id],
    ]);
  });

  it('touches a root whose own columns already match when rows under it are restored (its event the children’s parent)', async () => {
    const { revs } = await history();
    const root = revs.find((x) => x.collection === 'articles')!;
    await send('patch', '/items/notes/1', { text: 'edited' }).expect(200);
    const done = await restore(root.id);
    expect(done).toMatchObject({ action: 'none', changed_fields: [], applied: true });
    expect(done.children!.filter((c) => c.applied).map((c) => [c.collection, c.action, c.changed_fields])).toEqual([['notes', 'update', ['text']]]);
    expect(await rows('notes')).toEqual([{ id: 1, text: 'n', article: 1 }]);
    const written = (await history()).events.slice(-2);
    expect(written.map((e) => [e.collection, e.action, e.parent_event ?? null, e.delta])).toEqual([
      ['notes', 'revert', written[1]!.id, { text: 'n' }],
      ['articles', 'revert', null, {}],
    ]);
    // twice: nothing written
    const outbox = (await h.outbox()).length;
    expect((await restore(root.id)).applied).toBe(false);
    expect((await h.outbox()).length).toBe(outbox);
  });

  it('is one transaction: a row that cannot be written leaves every row as it was', async () => {
    await send('post', '/items/articles', { title: 'Two', comments: [{ body: 'c' }], tags: [{ tags_id: { name: 'tech' } }] }).expect(200);
    const { revs } = await history();
    const root = revs.filter((x) => x.collection === 'articles').at(-1)!;
    const comment = revs.filter((x) => x.collection === 'comments').at(-1)!;
    const tag = revs.filter((x) => x.collection === 'tags').at(-1)!;
    await send('patch', `/items/articles/${root.item}`, { title: 'Changed' }).expect(200);
    await send('delete', `/items/comments/${comment.item}`).expect(204);
    // the tag's row now fails the write that would put it back (a check the restored name breaks)
    await send('patch', `/items/tags/${tag.item}`, { name: 'renamed' }).expect(200);
    await h.pool.query(`ALTER TABLE content.tags ADD CONSTRAINT no_tech CHECK (name <> 'tech')`);
    const before = [await rows('articles'), await rows('comments'), await rows('tags')];
    const outbox = (await h.outbox()).length;
    const dry = await restore(root.id, true);
    expect(dry.children!.map((c) => [c.collection, c.action])).toEqual([
      ['comments', 'create'],
      ['tags', 'update'],
      ['articles_tags', 'none'],
    ]);
    await expect(restore(root.id)).rejects.toThrow();
    expect([await rows('articles'), await rows('comments'), await rows('tags')]).toEqual(before);
    expect((await h.outbox()).length).toBe(outbox);
    await h.pool.query('ALTER TABLE content.tags DROP CONSTRAINT no_tech');
    await restore(root.id);
    expect((await rows('comments')).map((c) => c.body)).toEqual(['c']);
    expect((await rows('articles')).find((a) => String(a.id) === root.item)!.title).toBe('Two');
  });
});
