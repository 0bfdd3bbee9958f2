import request from 'supertest';
import { harness, type Harness } from './helpers';
import { createSchema } from './schema-fixtures';

// Reads across relations: many-to-one paths joined in the list's own statement, alias fields (one-to-many,
// many-to-many) in the list's statement or one statement per alias and level, `deep`, filters across a many-to-one, permissions at every level.
let h: Harness;
const bearer = (t: string) => ({ Authorization: `Bearer ${t}` });
const get = (url: string, query: object = {}, token = h.admin) => request(h.app).get(url).query(query).set(bearer(token));
const post = (url: string, body: object) => request(h.app).post(url).set(bearer(h.admin)).send(body).expect(200);
/** Statements the items database ran for the content tables during `fn` (pg_stat_statements is not needed: we count calls on a test pool). */
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
      companies: 'name:string',
      authors: 'name:string,company:integer',
      articles: 'title:string,author:integer',
      comments: 'body:text,article:integer,votes:integer',
    },
    [
      { collection: 'authors', field: 'company', related_collection: 'companies' },
      { collection: 'articles', field: 'author', related_collection: 'authors', meta: { one_field: 'articles' } },
      { collection: 'comments', field: 'article', related_collection: 'articles', meta: { one_field: 'comments' } },
    ],
  );
  await post('/items/articles', {
    title: 'A',
    author: { name: 'Ann', company: { name: 'Acme' } },
    comments: [
      { body: 'a1', votes: 3 },
      { body: 'a2', votes: 9 },
      { body: 'a3', votes: 1 },
    ],
  });
  await post('/items/articles', { title: 'B', author: { name: 'Bob' }, comments: [{ body: 'b1', votes: 5 }] });
  await post('/items/articles', { title: 'C' });
});
afterAll(() => h.close());

describe('reads across relations', () => {
  it('joins many-to-one paths: author.name, author.company.name, *.*', async () => {
    const r = await get('/items/articles', { fields: 'title,author.name,author.company.name' });
    expect(r.body.data).toEqual([
      { title: 'A', author: { name: 'Ann', company: { name: 'Acme' } } },
      { title: 'B', author: { name: 'Bob', company: null } },
      { title: 'C', author: null },
    ]);
    const all = await get('/items/articles/1', { fields: '*.*' });
    expect(all.body.data).toEqual({ id: 1, title: 'A', author: { id: 1, name: 'Ann', company: 1 } });
  });

  it('filters and sorts across a many-to-one', async () => {
    const r = await get('/items/articles', { 'filter[author][name][_eq]': 'Bob', fields: 'title' });
    expect(r.body.data).toEqual([{ title: 'B' }]);
    const sorted = await get('/items/articles', { sort: '-author.name', fields: 'title', 'filter[author][_nnull]': true });
    expect(sorted.body.data).toEqual([{ title: 'B' }, { title: 'A' }]);
  });

  it('filters on alias fields: _some (or a condition on the alias), _none', async () => {
    const titles = async (filter: object) =>
      (await get('/items/articles', { filter: JSON.stringify(filter), fields: 'title' })).body.data.map((r: { title: string }) => r.title);
    expect(await titles({ comments: { _some: { votes: { _gte: 9 } } } })).toEqual(['A']);
    expect(await titles({ comments: { votes: { _eq: 5 } } })).toEqual(['B']);
    expect(await titles({ comments: { _none: { votes: { _gt: 4 } } } })).toEqual(['C']);
    expect(await titles({ _or: [{ title: { _eq: 'C' } }, { comments: { _some: { body: { _eq: 'b1' } } } }] })).toEqual(['B', 'C']);
    expect(await titles({ comments: { _some: { body: { _eq: 'nothing' } } } })).toEqual([]);
    expect(await titles({ comments: { _none: { body: { _eq: 'nothing' } } } })).toEqual(['A', 'B', 'C']);
    // behind a many-to-one: the comments whose article has a comment with 9 votes; whose author wrote B
    const bodies = async (filter: object) =>
      (await get('/items/comments', { filter: JSON.stringify(filter), fields: 'body' })).body.data.map((r: { body: string }) => r.body);
    expect(await bodies({ article: { comments: { _some: { votes: { _gte: 9 } } } } })).toEqual(['a1', 'a2', 'a3']);
    expect(await bodies({ article: { comments: { _none: { votes: { _gte: 9 } } } } })).toEqual(['b1']);
    expect(await bodies({ article: { author: { articles: { title: { _eq: 'B' } } } } })).toEqual(['b1']);
  });

  it('reads one-to-many children: keys, rows, fields, and deep _filter/_sort/_limit', async () => {
    const keys = await get('/items/articles', { fields: 'title,comments' });
    expect(keys.body.data).toEqual([
      { title: 'A', comments: [1, 2, 3] },
      { title: 'B', comments: [4] },
      { title: 'C', comments: [] },
    ]);
    const rows = await get('/items/articles/2', { fields: '*,comments.*' });
    expect(rows.body.data).toEqual({ id: 2, title: 'B', author: 2, comments: [{ id: 4, body: 'b1', article: 2, votes: 5 }] });
    const deep = await get('/items/articles', {
      fields: 'title,comments.body',
      'deep[comments][_sort]': '-votes',
      'deep[comments][_limit]': 2,
      'deep[comments][_filter][votes][_gt]': 1,
      filter: JSON.stringify({ title: { _in: ['A', 'B'] } }),
    });
    expect(deep.body.data).toEqual([
      { title: 'A', comments: [{ body: 'a2' }, { body: 'a1' }] },
      { title: 'B', comments: [{ body: 'b1' }] },
    ]);
    const none = await get('/items/articles/3', { fields: 'title,comments.body' });
    expect(none.body.data).toEqual({ title: 'C', comments: [] });
  });

  it("reads the children's many-to-one back to their parent: comments.article.title, comments.*.*", async () => {
    const back = await get('/items/articles', { fields: 'title,comments.body,comments.article.title', 'filter[title][_in]': 'A,B' });
    expect(back.body.data).toEqual([
      { title: 'A', comments: ['a1', 'a2', 'a3'].map((body) => ({ body, article: { title: 'A' } })) },
      { title: 'B', comments: [{ body: 'b1', article: { title: 'B' } }] },
    ]);
    const keyed = await get('/items/articles/2', { fields: 'comments.article.id,comments.article.author.name' });
    expect(keyed.body.data).toEqual({ comments: [{ article: { id: 2, author: { name: 'Bob' } } }] });
    const all = await get('/items/articles/2', { fields: 'comments.*.*' });
    expect(all.body.data).toEqual({ comments: [{ id: 4, body: 'b1', votes: 5, article: { id: 2, title: 'B', author: 2 } }] });
  });

  it('reads alias fields behind many-to-one fields: article.comments, article.author.articles, with deep', async () => {
    const r = await get('/items/comments', { fields: 'body,article.title,article.comments.body', 'filter[article][title][_eq]': 'B' });
    expect(r.body.data).toEqual([{ body: 'b1', article: { title: 'B', comments: [{ body: 'b1' }] } }]);
    const keys = await get('/items/comments/1', { fields: 'article.comments' });
    expect(keys.body.data).toEqual({ article: { comments: [1, 2, 3] } });
    const keyed = await get('/items/comments/1', { fields: 'article.id,article.comments.votes' });
    expect(keyed.body.data).toEqual({ article: { id: 1, comments: [{ votes: 3 }, { votes: 9 }, { votes: 1 }] } });
    const ranked = await get('/items/comments/3', {
      fields: 'article.comments.body',
      deep: JSON.stringify({ article: { comments: { _sort: '-votes', _limit: 2 } } }),
    });
    expect(ranked.body.data).toEqual({ article: { comments: [{ body: 'a2' }, { body: 'a1' }] } });
    const deep = await get('/items/comments/4', {
      fields: 'body,article.author.name,article.author.articles.title,article.author.articles.comments.body',
      deep: JSON.stringify({ article: { author: { articles: { _sort: '-title', comments: { _limit: 1 } } } } }),
    });
    expect(deep.body.data).toEqual({ body: 'b1', article: { author: { name: 'Bob', articles: [{ title: 'B', comments: [{ body: 'b1' }] }] } } });
    const none = await get('/items/articles/3', { fields: 'title,author.articles.title' });
    expect(none.body.data).toEqual({ title: 'C', author: null });
  });

  it('costs a fixed number of statements whatever the number of rows: at most one per relation level', async () => {
    statements = 0;
    await get('/items/articles', { fields: '*,author.*,comments.*' }).expect(200);
    const few = statements;
    for (let i = 0; i < 20; i++) await post('/items/articles', { title: `x${i}`, author: 1, comments: [{ body: 'c' }, { body: 'd' }] });
    statements = 0;
    const r = await get('/items/articles', { fields: '*,author.*,comments.*' }).expect(200);
    expect(r.body.data).toHaveLength(23);
    expect(statements).toBe(few);
    // the definitions are kept in memory (catalogue-cache.ts): the list with its join and its children, one statement
    expect(statements).toBe(1);
  });

  it('applies permissions at every level: a path into an unreadable collection is 403, *.* leaves its key', async () => {
    await h.grant('readers', { articles: { read: ['*'] }, comments: { read: ['id', 'body', 'article'] } });
    const reader = h.tokenFor('readers');
    expect((await get('/items/articles', { fields: 'title,author.name' }, reader)).status).toBe(403);
    const all = await get('/items/articles/1', { fields: '*.*' }, reader);
    expect(all.body.data).toEqual({ id: 1, title: 'A', author: 1 });
    const children = await get('/items/articles/1', { fields: 'title,comments.*' }, reader);
    expect(children.body.data.comments[0]).toEqual({ id: 1, body: 'a1', article: 1 });
    expect((await get('/items/articles/1', { fields: 'comments.votes' }, reader)).status).toBe(403);
    expect((await get('/items/comments/1', { fields: 'article.comments.votes' }, reader)).status).toBe(403);
    expect((await get('/items/comments/4', { fields: 'article.comments.body' }, reader)).body.data).toEqual({ article: { comments: [{ body: 'b1' }] } });
    await h.grant('no-comments', { articles: { read: ['*'] } });
    expect((await get('/items/articles/1', { fields: 'comments.*' }, h.tokenFor('no-comments'))).status).toBe(403);
  });
});
