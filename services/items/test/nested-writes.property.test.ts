import request from 'supertest';
import { harness, type Harness } from './helpers';
import { blog, createSchema } from './schema-fixtures';

// Property: random trees of nested creates, updates, links, unlinks and deletes (Directus's payload shapes) →
// (1) what the item reads back is what each payload says, and (2) the item-change events (what the revisions
// service records), replayed in order, rebuild every row of every table exactly.
let h: Harness;
const SEED = Number(process.env.PROPERTY_SEED ?? 20261205);
let state = SEED;
const rand = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const pick = <T>(xs: T[]): T => xs[Math.floor(rand() * xs.length)]!;
const word = () => pick(['ant', 'bee', 'cat', 'dog', 'eel', 'fox', 'gnu']) + Math.floor(rand() * 1000);
const some = <T>(xs: T[]) => xs.filter(() => rand() < 0.5);
const TABLES = ['authors', 'articles', 'comments', 'notes', 'tags', 'articles_tags'];

type Row = Record<string, unknown>;
const api = () => ({
  get: (url: string, query: object) =>
    request(h.app)
      .get(url)
      .query(query)
      .set({ Authorization: `Bearer ${h.admin}` }),
  post: (url: string, body: object) =>
    request(h.app)
      .post(url)
      .set({ Authorization: `Bearer ${h.admin}` })
      .send(body),
  patch: (url: string, body: object) =>
    request(h.app)
      .patch(url)
      .set({ Authorization: `Bearer ${h.admin}` })
      .send(body),
});
const rows = async (t: string): Promise<Row[]> => (await h.pool.query(`SELECT * FROM content.${t} ORDER BY id`)).rows;
const FIELDS = 'id,title,author.name,comments.id,comments.body,notes.id,notes.text,tags.tags_id.name';
type Read = { title: string; author: { name: string } | null; comments: Row[]; notes: Row[]; tags: { tags_id: { name: string } }[] };
const read = async (id: number): Promise<Read> => (await api().get(`/items/articles/${id}`, { fields: FIELDS }).expect(200)).body.data;
const sorted = (xs: unknown[]) => [...xs].map(String).sort();

beforeAll(async () => {
  h = await harness();
  await createSchema(h, blog.collections, blog.relations);
});
afterAll(() => h.close());

it(`random nested writes read back as their payloads say, and their events rebuild every row (seed ${SEED})`, async () => {
  const articles: number[] = [];
  for (let step = 0; step < 60; step++) {
    const authors = (await rows('authors')).map((r) => r.id as number);
    const tags = (await rows('tags')).map((r) => r.id as number);
    const author = pick<unknown>([undefined, null, { name: word() }, ...(authors.length ? [pick(authors), { id: pick(authors), name: word() }] : [])]);
    const tagList = Array.from({ length: Math.floor(rand() * 3) }, () => ({ tags_id: tags.length && rand() < 0.5 ? pick(tags) : { name: word() } }));
    if (articles.length === 0 || rand() < 0.3) {
      const body: Row = { title: word(), comments: Array.from({ length: Math.floor(rand() * 3) }, () => ({ body: word() })), tags: tagList };
      if (author !== undefined) body.author = author;
      const r = await api().post('/items/articles', body).expect(200);
      articles.push(r.body.data.id);
      await expectRead(r.body.data.id, body, await read(r.body.data.id), { comments: [], notes: [] });
      continue;
    }
    const id = pick(articles);
    const before = await read(id);
    const body: Row = {};
    if (rand() < 0.5) body.title = word();
    if (author !== undefined) body.author = author;
    if (rand() < 0.6)
      body.comments = [...some(before.comments).map((c) => (rand() < 0.5 ? c.id : { id: c.id, body: word() })), ...some([{ body: word() }, { body: word() }])];
    if (rand() < 0.6) {
      const [keep, drop] = [before.notes.filter(() => rand() < 0.6), [] as Row[]];
      drop.push(...before.notes.filter((n) => !keep.includes(n)));
      body.notes = { create: some([{ text: word() }]), update: some(keep).map((n) => ({ id: n.id, text: word() })), delete: drop.map((n) => n.id) };
    }
    if (rand() < 0.5) body.tags = tagList;
    await api().patch(`/items/articles/${id}`, body).expect(200);
    await expectRead(id, body, await read(id), before);
  }
  await expectReplayRebuilds();
});

/** What the read of the article must show after `body`: each key it sent, as Directus's shapes say. */
async function expectRead(_id: number, body: Row, after: Read, before: Pick<Read, 'comments' | 'notes'>) {
  if (body.title !== undefined) expect(after.title).toBe(body.title);
  if (body.author === null) expect(after.author).toBeNull();
  else if (typeof body.author === 'object' && body.author) expect(after.author?.name).toBe((body.author as Row).name);
  else if (body.author !== undefined) expect(after.author?.name).toBe((await rows('authors')).find((a) => a.id === body.author)!.name);
  if (Array.isArray(body.comments)) {
    const old = new Map(before.comments.map((c) => [c.id, c.body]));
    const want = (body.comments as unknown[]).map((c) => (typeof c === 'number' ? old.get(c) : (c as Row).body));
    expect(sorted(after.comments.map((c) => c.body))).toEqual(sorted(want));
  }
  if (body.notes && !Array.isArray(body.notes)) {
    const n = body.notes as { create: Row[]; update: Row[]; delete: number[] };
    const updated = new Map(n.update.map((u) => [u.id, u.text]));
    const want = [...before.notes.filter((x) => !n.delete.includes(x.id as number)).map((x) => updated.get(x.id) ?? x.text), ...n.create.map((c) => c.text)];
    expect(sorted(after.notes.map((x) => x.text))).toEqual(sorted(want));
  }
  if (Array.isArray(body.tags)) {
    const names = new Map((await rows('tags')).map((t) => [t.id, t.name]));
    const want = (body.tags as { tags_id: unknown }[]).map((t) => (typeof t.tags_id === 'number' ? names.get(t.tags_id) : (t.tags_id as Row).name));
    expect(sorted(after.tags.map((t) => t.tags_id.name))).toEqual(sorted(want));
  }
}

/** Folding every event in outbox order (creates and updates carry the row, a delete removes it) gives every table as stored. */
async function expectReplayRebuilds() {
  const events = (await h.outbox()).map((m) => m.payload as { collection: string; item: string; action: string; data: Row | null });
  const rebuilt = new Map<string, Map<string, Row>>(TABLES.map((t) => [t, new Map()]));
  for (const e of events) {
    const table = rebuilt.get(e.collection);
    if (!table) continue;
    if (e.action === 'delete') table.delete(e.item);
    else table.set(e.item, e.data!);
  }
  for (const t of TABLES) {
    const stored = await rows(t);
    expect([...rebuilt.get(t)!.values()].sort((a, b) => (a.id as number) - (b.id as number))).toEqual(stored);
  }
}
