import request from 'supertest';
import { collectionWithId, eventually, startTestPlatform, type TestPlatform } from './platform-harness';

// A nested write through the gateway of the embedded platform: every row of the tree gets its revision, each child's
// `parent` is the revision of the row that carried it, a nested delete leaves the row's last state, and a role sees a
// child revision only when it may read the child's collection.
describe('nested writes → a tree of revisions, end to end', () => {
  let p: TestPlatform;
  let admin: string;
  beforeAll(async () => {
    p = await startTestPlatform();
    admin = (await p.login()).access_token;
  });
  afterAll(() => p?.close());

  const as = (token: string) => ({ Authorization: `Bearer ${token}` });
  type Rev = {
    id: number;
    collection: string;
    item: string;
    parent: number | null;
    data: Record<string, unknown> | null;
    delta: unknown;
    activity: { action: string };
  };
  const revisions = (min: number, token = admin) =>
    eventually(async () => {
      const r = await request(p.url)
        .get('/revisions')
        .query({ filter: JSON.stringify({ collection: { _in: ['articles', 'tags', 'articles_tags'] } }) })
        .query({ fields: 'id,collection,item,parent,data,delta,activity.action', sort: 'id', limit: -1 })
        .set(as(token));
      return r.body.data?.length >= min ? (r.body.data as Rev[]) : undefined;
    });

  it('fills parent across the tree, lists a revision’s children, and keeps a nested delete’s last state', async () => {
    const api = request(p.url);
    const mk = (name: string, fields: { field: string; type: string }[]) =>
      api.post('/collections').set(as(admin)).send(collectionWithId(name, fields)).expect(200);
    await mk('articles', [{ field: 'title', type: 'string' }]);
    await mk('tags', [{ field: 'name', type: 'string' }]);
    await mk('articles_tags', [
      { field: 'articles_id', type: 'integer' },
      { field: 'tags_id', type: 'integer' },
    ]);
    const rel = (body: object) => api.post('/relations').set(as(admin)).send(body).expect(200);
    await rel({
      collection: 'articles_tags',
      field: 'articles_id',
      related_collection: 'articles',
      meta: { one_field: 'tags', junction_field: 'tags_id', one_deselect_action: 'delete' },
    });
    await rel({ collection: 'articles_tags', field: 'tags_id', related_collection: 'tags', meta: { junction_field: 'articles_id' } });

    const article = (
      await api
        .post('/items/articles')
        .set(as(admin))
        .send({ title: 'A', tags: [{ tags_id: { name: 'news' } }] })
        .expect(200)
    ).body.data;
    const created = await revisions(3);
    const of = (list: Rev[], collection: string, action = 'create') => list.find((r) => r.collection === collection && r.activity.action === action)!;
    // a tag created through a junction row → its parent is the junction row's revision, whose parent is the article's
    expect(of(created, 'articles').parent).toBeNull();
    expect(of(created, 'articles_tags').parent).toBe(of(created, 'articles').id);
    expect(of(created, 'tags').parent).toBe(of(created, 'articles_tags').id);

    const children = await api
      .get('/revisions')
      .query({ 'filter[parent][_eq]': of(created, 'articles').id, fields: 'collection,parent.collection' })
      .set(as(admin));
    expect(children.body.data).toEqual([{ collection: 'articles_tags', parent: { collection: 'articles' } }]);

    // the GraphQL parent relation walks the same tree
    const gql = await api
      .post('/graphql/system')
      .set(as(admin))
      .send({ query: '{ revisions(filter: {collection: {_eq: "tags"}}) { collection parent { collection parent { collection item } } } }' });
    expect(gql.body.data.revisions).toEqual([
      { collection: 'tags', parent: { collection: 'articles_tags', parent: { collection: 'articles', item: String(article.id) } } },
    ]);

    // unlinking the tag deletes the junction row (one_deselect_action delete): its revision keeps its last state
    await api.patch(`/items/articles/${article.id}`).set(as(admin)).send({ tags: [] }).expect(200);
    const after = await revisions(5);
    const removed = of(after, 'articles_tags', 'delete');
    expect([removed.data, removed.delta]).toEqual([{ id: 1, articles_id: article.id, tags_id: 1 }, null]);
    const rootUpdate = of(after, 'articles', 'update');
    expect([rootUpdate.delta, removed.parent]).toEqual([{}, rootUpdate.id]);

    // a role that reads articles but not the junction sees the article's revisions and none of its children's
    const role = (await api.post('/roles').set(as(admin)).send({ name: 'Article reader', app_access: true, admin_access: false })).body.data;
    await api
      .post('/permissions')
      .set(as(admin))
      .send({ role: role.id, collection: 'articles', action: 'read', fields: ['*'] })
      .expect(200);
    await api.post('/users').set(as(admin)).send({ email: 'nested@example.com', password: 'reader-password-1', role: role.id, status: 'active' }).expect(200);
    const reader = (await p.login('nested@example.com', 'reader-password-1')).access_token;
    const seen = await revisions(2, reader);
    expect(new Set(seen.map((r) => r.collection))).toEqual(new Set(['articles']));
    const hidden = await api
      .get('/revisions')
      .query({ 'filter[parent][_eq]': of(created, 'articles').id })
      .set(as(reader));
    expect(hidden.body.data).toEqual([]);
  });
});
