import request from 'supertest';
import { harness, type Harness } from './helpers';
import { createSchema } from './schema-fixtures';

// One-to-many children read in the list's own statement (read-embedded.ts) answer as the two-statement way does:
// a one-item read still takes that way, so every list row must equal its item read with the same `fields`/`deep`.
let h: Harness;
const bearer = (t: string) => ({ Authorization: `Bearer ${t}` });
const get = (url: string, query: object = {}, token = h.admin) => request(h.app).get(url).query(query).set(bearer(token));
const post = (url: string, body: object) => request(h.app).post(url).set(bearer(h.admin)).send(body).expect(200);
let statements = 0;

beforeAll(async () => {
  h = await harness();
  const query = h.pool.query.bind(h.pool);
  h.pool.query = ((...args: Parameters<typeof query>) => {
    statements++;
    return query(...args);
  }) as typeof h.pool.query;
  await createSchema(
    h,
    {
      articles: 'title:string,flag:boolean',
      comments: 'body:text,article:integer,votes:integer,extra:json',
      // a type whose JSON form differs from what the pool's parsers give: read by a second statement
      events: 'article:integer,at:timestamp,big:bigInteger,price:decimal',
    },
    [
      { collection: 'comments', field: 'article', related_collection: 'articles', meta: { one_field: 'comments' } },
      { collection: 'events', field: 'article', related_collection: 'articles', meta: { one_field: 'events' } },
    ],
  );
  for (let i = 0; i < 6; i++) {
    const comments = Array.from({ length: i % 4 }, (_, j) => ({ body: `c${i}.${j}`, votes: (j * 7 + i) % 5, extra: j ? { n: j, s: ['x'] } : null }));
    const events = Array.from({ length: i % 3 }, (_, j) => ({ at: `2026-0${j + 1}-02T03:04:05.678Z`, big: '9007199254740993', price: '1.10' }));
    await post('/items/articles', { title: `A${i}`, flag: i % 2 === 0, comments, events });
  }
  // the definitions read once and kept (catalogue-cache.ts): the counts below are the reads' own statements
  await get('/items/articles', { fields: 'comments.*,events.*' }).expect(200);
});
afterAll(() => h.close());

/** The list with `q`, checked row by row against each item read alone (children read apart), and its statement count. */
async function sameAsItems(q: Record<string, unknown>, token = h.admin): Promise<{ data: Record<string, unknown>[]; statements: number }> {
  statements = 0;
  const list = await get('/items/articles', { ...q, sort: 'id' }, token).expect(200);
  const n = statements;
  const { fields, ...rest } = q;
  const ids = (await get('/items/articles', { fields: 'id', sort: 'id', ...(rest.filter ? { filter: rest.filter } : {}) }, token)).body.data;
  expect(list.body.data).toHaveLength(ids.length);
  for (const [i, { id }] of ids.entries()) {
    const one = await get(`/items/articles/${id}`, { fields, ...(rest['deep'] ? { deep: rest['deep'] } : {}) }, token).expect(200);
    expect(list.body.data[i]).toEqual(one.body.data);
  }
  return { data: list.body.data, statements: n };
}

describe('children in the list statement', () => {
  it('answers as the children read apart: rows, keys, fields, deep, in one statement', async () => {
    for (const q of [
      { fields: '*,comments.*' },
      { fields: 'title,comments' },
      { fields: 'comments.body' },
      { fields: 'id,comments.votes,comments.id', deep: JSON.stringify({ comments: { _sort: '-votes', _limit: 2, _offset: 1 } }) },
      { fields: '*,comments.*', deep: JSON.stringify({ comments: { _filter: { votes: { _gt: 1 } } } }), filter: JSON.stringify({ flag: { _eq: true } }) },
    ]) {
      const r = await sameAsItems(q);
      expect(r.statements).toBe(1);
    }
    const r = await sameAsItems({ fields: 'title,comments.body,comments.extra' });
    expect(r.data[2]).toEqual({
      title: 'A2',
      comments: [
        { body: 'c2.0', extra: null },
        { body: 'c2.1', extra: { n: 1, s: ['x'] } },
      ],
    });
  });

  it('keeps types it cannot carry as JSON to a second statement, with the same answers', async () => {
    const r = await sameAsItems({ fields: 'title,events.*' });
    expect(r.statements).toBe(2);
    expect(r.data[1]!.events).toEqual([{ id: 1, article: 2, at: '2026-01-02T03:04:05.678Z', big: '9007199254740993', price: '1.10000' }]);
    // both aliases: the one that cannot be embedded sends every alias apart
    expect((await sameAsItems({ fields: 'title,comments.*,events.at' })).statements).toBe(3);
  });

  it('applies the caller permissions per level, as the children read apart', async () => {
    await h.grant('readers', { articles: { read: ['id', 'title'] }, comments: { read: ['id', 'body', 'article'] } });
    const reader = h.tokenFor('readers');
    const r = await sameAsItems({ fields: '*,comments.*' }, reader);
    expect(r.statements).toBe(1);
    expect(r.data[1]).toEqual({ id: 2, title: 'A1', comments: [{ id: 1, body: 'c1.0', article: 2 }] });
    expect((await get('/items/articles', { fields: 'comments.votes' }, reader)).status).toBe(403);
    // a collection the caller cannot read: 403 for a page with rows, none asked for an empty page (as before)
    await h.grant('no-comments', { articles: { read: ['*'] } });
    const none = h.tokenFor('no-comments');
    expect((await get('/items/articles', { fields: 'comments.*' }, none)).status).toBe(403);
    const empty = await get('/items/articles', { fields: 'comments.*', filter: JSON.stringify({ title: { _eq: 'none' } }) }, none);
    expect([empty.status, empty.body.data]).toEqual([200, []]);
  });
});
