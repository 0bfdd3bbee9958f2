import request from 'supertest';
import { collectionWithId, startTestPlatform, eventually, type TestPlatform } from './platform-harness';

// Issue 4's "done when", through the gateway of the composed platform: every item write has its revision,
// and a role that cannot read the collection sees none of them (meta agrees).
describe('items → revisions, end to end through the gateway', () => {
  let p: TestPlatform;
  let admin: string;
  beforeAll(async () => {
    p = await startTestPlatform();
    admin = (await p.login()).access_token;
  });
  afterAll(() => p?.close());

  const as = (token: string) => ({ Authorization: `Bearer ${token}` });

  it('records 6 revisions for 3 creates, 2 updates and 1 delete, in order, hidden from a role without access', async () => {
    const api = request(p.url);
    const articles = collectionWithId('articles', [
      { field: 'title', type: 'string' },
      { field: 'body', type: 'text' },
    ]);
    expect((await api.post('/collections').set(as(admin)).send(articles)).status).toBe(200);
    const ids: number[] = [];
    for (const title of ['one', 'two', 'three']) {
      const r = await api
        .post('/items/articles')
        .set(as(admin))
        .send({ title, body: `${title} body` });
      expect(r.status).toBe(200);
      ids.push(r.body.data.id);
    }
    await api.patch(`/items/articles/${ids[0]}`).set(as(admin)).send({ title: 'one v2' }).expect(200);
    await api.patch(`/items/articles/${ids[0]}`).set(as(admin)).send({ title: 'one v3' }).expect(200);
    await api.delete(`/items/articles/${ids[1]}`).set(as(admin)).expect(204);
    // A write that fails validation produces no revision.
    await api.post('/items/articles').set(as(admin)).send({ nope: 1 }).expect(400);

    const list = await eventually(async () => {
      const r = await api
        .get('/revisions')
        .query({
          filter: JSON.stringify({ collection: { _eq: 'articles' } }),
          meta: '*',
          fields: 'id,item,data,delta,activity.action,activity.user',
          sort: 'id',
        })
        .set(as(admin));
      // the count and the page are read side by side (docs/api.md): both have caught up once all six are recorded
      return r.body.data?.length >= 6 && r.body.meta?.filter_count >= 6 ? r.body : undefined;
    });
    expect(list.data).toHaveLength(6);
    expect(list.meta.filter_count).toBe(6);
    // Per item, revisions follow the order the writes committed; across items, delivery may interleave them.
    type Rev = { id: number; item: string; data: unknown; delta: unknown; activity: { action: string } };
    const byItem = [...(list.data as Rev[])].sort((a, b) => Number(a.item) - Number(b.item) || a.id - b.id);
    expect(byItem.map((r) => [r.item, r.activity.action])).toEqual(
      [
        [ids[0], 'create'],
        [ids[0], 'update'],
        [ids[0], 'update'],
        [ids[1], 'create'],
        [ids[1], 'delete'],
        [ids[2], 'create'],
      ].map(([i, a]) => [String(i), a]),
    );
    expect(byItem[0]!.data).toEqual({ id: ids[0], title: 'one', body: 'one body' });
    expect(byItem[1]).toMatchObject({ data: { id: ids[0], title: 'one v2', body: 'one body' }, delta: { title: 'one v2' } });
    expect(byItem[2]).toMatchObject({ data: { title: 'one v3' }, delta: { title: 'one v3' } });
    expect(byItem[4]).toMatchObject({ data: null, delta: null });
    const me = (await api.get('/users/me').set(as(admin))).body.data;
    expect(list.data.every((r: { activity: { user: string } }) => r.activity.user === me.id)).toBe(true);

    // A restricted role that cannot read `articles` sees none of it, and meta agrees.
    const role = (await api.post('/roles').set(as(admin)).send({ name: 'Reader', app_access: true, admin_access: false })).body.data;
    await api
      .post('/permissions')
      .set(as(admin))
      .send({ role: role.id, collection: 'notes', action: 'read', fields: ['*'] })
      .expect(200);
    await api.post('/users').set(as(admin)).send({ email: 'reader@example.com', password: 'reader-password-1', role: role.id, status: 'active' }).expect(200);
    const reader = (await p.login('reader@example.com', 'reader-password-1')).access_token;
    const hidden = await api
      .get('/revisions')
      .query({ filter: JSON.stringify({ collection: { _eq: 'articles' } }), meta: '*' })
      .set(as(reader));
    expect(hidden.status).toBe(200);
    expect(hidden.body).toEqual({ data: [], meta: { total_count: 0, filter_count: 0 } });
    expect((await api.get(`/revisions/${list.data[0].id}`).set(as(reader))).status).toBe(403);

    // Granting read on `articles` (title only) makes them visible within a second, with `body` stripped.
    await api
      .post('/permissions')
      .set(as(admin))
      .send({ role: role.id, collection: 'articles', action: 'read', fields: ['id', 'title'] })
      .expect(200);
    const visible = await eventually(async () => {
      const r = await api.get('/revisions').query({ 'filter[collection][_eq]': 'articles', meta: 'filter_count' }).set(as(reader));
      return r.body.data?.length === 6 ? r.body : undefined;
    }, 5000);
    expect(visible.meta.filter_count).toBe(6);
    // the reader's role reads id and title only
    expect((visible.data as { data: unknown }[]).map((r) => r.data)).toContainEqual({ id: ids[0], title: 'one' });
    // GraphQL through the gateway (one subgraph: its single-fetch path, the subgraph's compiled path) applies the
    // same rules: the same rows, `body` stripped
    const gql = await api
      .post('/graphql/system')
      .set(as(reader))
      .send({ query: 'query($s: [String]) { revisions(sort: $s) { id collection data } }', variables: { s: ['id'] } });
    const rest = await api.get('/revisions').query({ fields: 'id,collection,data', sort: 'id' }).set(as(reader));
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.revisions).toEqual(rest.body.data.map((r: { id: number }) => ({ ...r, id: String(r.id) })));
    expect(gql.body.data.revisions.map((r: { data: object | null }) => r.data && Object.keys(r.data).sort())).toContainEqual(['id', 'title']);
  });

  it('joins a revision, its activity and the acting user across subgraphs over GraphQL', async () => {
    const r = await request(p.url).post('/graphql/system').set(as(admin)).send({
      query: '{ revisions(limit: 10, sort: ["-id"], filter: { collection: { _eq: "articles" } }) { id collection activity { action user { email } } } }',
    });
    expect(r.status).toBe(200);
    expect(r.body.errors).toBeUndefined();
    const deleted = (r.body.data.revisions as { activity: { action: string } }[]).find((x) => x.activity.action === 'delete');
    expect(deleted).toMatchObject({ collection: 'articles', activity: { action: 'delete', user: { email: 'admin@example.com' } } });
  });
});
