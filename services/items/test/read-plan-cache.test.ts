import request from 'supertest';
import { harness, type Harness } from './helpers';
import { createSchema } from './schema-fixtures';

// List plans kept between requests (read-plan-cache.ts) follow every change that makes them wrong: the caller's
// rules, a field or relation added or removed, a dynamic value of the moment.
let h: Harness;
const bearer = (t: string) => ({ Authorization: `Bearer ${t}` });
const get = (url: string, query: object, token = h.admin) => request(h.app).get(url).query(query).set(bearer(token));
const send = (method: 'post' | 'patch' | 'delete', url: string, body?: object) => {
  const agent = request(h.app);
  return agent[method](url)
    .set(bearer(h.admin))
    .send(body)
    .expect((r) => expect(r.status).toBeLessThan(300));
};

beforeAll(async () => {
  h = await harness();
  await createSchema(h, { articles: 'title:string,secret:string', comments: 'body:text,article:integer' }, [
    { collection: 'comments', field: 'article', related_collection: 'articles', meta: { one_field: 'comments' } },
  ]);
  await send('post', '/items/articles', { title: 'A', secret: 's', comments: [{ body: 'c1' }] });
});
afterAll(() => h.close());

describe('list plans kept between requests', () => {
  it("follow the caller's rules as they change", async () => {
    await h.grant('editors', { articles: { read: ['*'] }, comments: { read: ['*'] } });
    const editor = h.tokenFor('editors');
    const q = { fields: '*,comments.*' };
    expect((await get('/items/articles', q, editor)).body.data).toEqual([{ id: 1, title: 'A', secret: 's', comments: [{ id: 1, body: 'c1', article: 1 }] }]);
    await h.grant('editors', { articles: { read: ['id', 'title'] }, comments: { read: ['id', 'article'] } });
    expect((await get('/items/articles', q, editor)).body.data).toEqual([{ id: 1, title: 'A', comments: [{ id: 1, article: 1 }] }]);
    await h.grant('editors', { articles: { read: ['id', 'title'] } });
    expect((await get('/items/articles', q, editor)).status).toBe(403);
    // another role's plan of the same query is its own
    await h.grant('others', { articles: { read: ['title'] } });
    expect((await get('/items/articles', { fields: '*' }, h.tokenFor('others'))).body.data).toEqual([{ id: 1, title: 'A' }]);
  });

  it('follow the schema: a field added, one of another type in its place, a relation removed', async () => {
    const q = { fields: '*,comments.*' };
    expect((await get('/items/articles', q)).body.data[0]).toEqual({ id: 1, title: 'A', secret: 's', comments: [{ id: 1, body: 'c1', article: 1 }] });
    await send('post', '/fields/comments', { field: 'votes', type: 'integer' });
    await send('post', '/fields/articles', { field: 'rank', type: 'integer' });
    expect((await get('/items/articles', q)).body.data[0]).toEqual({
      id: 1,
      title: 'A',
      secret: 's',
      rank: null,
      comments: [{ id: 1, body: 'c1', article: 1, votes: null }],
    });
    // the same statement text over a column of another type: prepared again under a new name, no stale plan
    await send('delete', '/fields/articles/rank');
    await send('post', '/fields/articles', { field: 'rank', type: 'string' });
    await send('patch', '/items/articles/1', { rank: 'high' });
    for (let i = 0; i < 3; i++) expect((await get('/items/articles', q)).body.data[0].rank).toBe('high');
    await send('delete', '/relations/comments/article');
    expect((await get('/items/articles', q)).status).toBe(403);
  });

  it('plan a dynamic value again at each request', async () => {
    await send('post', '/collections', {
      collection: 'events',
      fields: [
        { field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true } },
        { field: 'at', type: 'timestamp' },
      ],
    });
    await send('post', '/items/events', { at: new Date(Date.now() + 1500).toISOString() });
    const q = { fields: 'id', filter: JSON.stringify({ at: { _lt: '$NOW' } }) };
    expect((await get('/items/events', q)).body.data).toEqual([]);
    await new Promise((r) => setTimeout(r, 1600));
    expect((await get('/items/events', q)).body.data).toEqual([{ id: 1 }]);
  });
});
