import request from 'supertest';
import { natsServerBinary } from '@vellum/testing';
import { useDistributedPlatform } from './distributed-process';
import { collectionWithId, eventually, startTestPlatform, type TestPlatform } from './platform-harness';

// Issue 36 (first slice), through the gateway in both topologies (one process; one process per service): saves to
// a version are recorded as revisions with `version` set (the item untouched), a promote is a normal update (version
// null, activity `promote`), a stale mainHash is 422, `?at=` reads never show a version's saves, and deleting the version keeps its
// revisions: /revisions?filter[version][_eq]=<id> still lists them. GraphQL `versions`/`versions_by_id` on
// /graphql/system (the items subgraph) with REST's rules.

/** The flow, against a gateway at `url` with an administrator's token. */
async function versionsFlow(url: string, admin: string) {
  const api = () => request(url);
  const as = (token: string) => ({ Authorization: `Bearer ${token}` });
  const revisionsOf = async (filter: object) =>
    (
      await api()
        .get('/revisions')
        .query({ filter: JSON.stringify(filter), fields: 'id,item,data,delta,version,activity.action', sort: 'id' })
        .set(as(admin))
        .expect(200)
    ).body.data as {
      id: number;
      item: string;
      data: Record<string, unknown>;
      delta: Record<string, unknown>;
      version: string | null;
      activity: { action: string };
    }[];
  const articles = {
    ...collectionWithId('articles', [
      { field: 'title', type: 'string' },
      { field: 'extra', type: 'json' },
    ]),
    meta: { versioning: true },
  };
  await api().post('/collections').set(as(admin)).send(articles).expect(200);
  const id = (await api().post('/items/articles').set(as(admin)).send({ title: 'live' }).expect(200)).body.data.id as number;
  const v = (await api().post('/versions').set(as(admin)).send({ key: 'draft', collection: 'articles', item: id }).expect(200)).body.data;
  await api()
    .post(`/versions/${v.id}/save`)
    .set(as(admin))
    .send({ title: 'draft', extra: { a: { x: 1 } } })
    .expect(200);
  await api()
    .post(`/versions/${v.id}/save`)
    .set(as(admin))
    .send({ extra: { a: { y: 2 } } })
    .expect(200);
  const saved = await eventually(async () => {
    const r = await revisionsOf({ version: { _eq: v.id } });
    return r.length >= 2 ? r : undefined;
  });
  expect(saved.map((r) => [r.item, r.data, r.version])).toEqual([
    [String(id), { title: 'draft', extra: { a: { x: 1 } } }, v.id],
    [String(id), { extra: { a: { y: 2 } } }, v.id],
  ]);
  expect((await api().get(`/items/articles/${id}`).set(as(admin)).expect(200)).body.data.title).toBe('live');
  // reading the version through the gateway: the deep-merged delta laid over the item, the item itself unchanged
  const versioned = await api().get(`/items/articles/${id}`).query({ version: 'draft' }).set(as(admin)).expect(200);
  expect(versioned.body.data).toMatchObject({ title: 'draft', extra: { a: { x: 1, y: 2 } } });
  const listed = await api()
    .get('/items/articles')
    .query({ version: 'draft', filter: JSON.stringify({ title: { _eq: 'draft' } }) })
    .set(as(admin))
    .expect(200);
  expect(listed.body.data.map((r: { id: number }) => r.id)).toEqual([id]);
  // the item as it was (`?at=`, read from the revisions) is the live one: a version's saves are not its states
  const at = new Date().toISOString();
  expect((await api().get(`/items/articles/${id}`).query({ at }).set(as(admin)).expect(200)).body.data).toMatchObject({ title: 'live', extra: null });
  expect((await api().get('/items/articles').query({ at }).set(as(admin)).expect(200)).body.data).toEqual([expect.objectContaining({ title: 'live' })]);

  const compare = (await api().get(`/versions/${v.id}/compare`).set(as(admin)).expect(200)).body.data;
  expect(compare).toMatchObject({ outdated: false, current: { title: 'draft', extra: { a: { x: 1, y: 2 } } } });
  const stale = await api()
    .post(`/versions/${v.id}/promote`)
    .set(as(admin))
    .send({ mainHash: String(Number(compare.mainHash) + 1) });
  expect([stale.status, stale.body.errors[0].extensions.code, stale.body.errors[0].extensions.mainHash]).toEqual([
    422,
    'VERSION_HASH_MISMATCH',
    compare.mainHash,
  ]);
  await api().post(`/versions/${v.id}/promote`).set(as(admin)).send({ mainHash: compare.mainHash }).expect(200);
  expect((await api().get(`/items/articles/${id}`).set(as(admin)).expect(200)).body.data).toMatchObject({ title: 'draft', extra: { a: { x: 1, y: 2 } } });
  const promoted = await eventually(async () => {
    const r = await revisionsOf({ collection: { _eq: 'articles' }, item: { _eq: String(id) }, version: { _null: true } });
    return r.length >= 2 ? r : undefined;
  });
  // the promote is an update of the item recorded with the action `promote` (issue 36), without a version
  expect(promoted[1]).toMatchObject({ version: null, activity: { action: 'promote' }, delta: { title: 'draft', extra: { a: { x: 1, y: 2 } } } });

  await graphqlFlow(url, admin, v.id, id);

  await api().delete(`/versions/${v.id}`).set(as(admin)).expect(204);
  expect((await api().get(`/versions/${v.id}`).set(as(admin))).status).toBe(404);
  expect((await revisionsOf({ version: { _eq: v.id } })).map((r) => r.id)).toEqual(saved.map((r) => r.id));
}

/**
 * GraphQL `versions` / `versions_by_id` on /graphql/system (the items subgraph, composed by the gateway): the admin
 * sees the version (its user joined from the auth subgraph); a role without read on `articles` gets none, and
 * versions_by_id of it → null with FORBIDDEN, as an unknown id does.
 */
async function graphqlFlow(url: string, admin: string, versionId: string, item: number) {
  const gql = async (token: string, query: string, variables: object = {}) =>
    (
      await request(url)
        .post('/graphql/system')
        .set({ Authorization: `Bearer ${token}` })
        .send({ query, variables })
        .expect(200)
    ).body;
  const all = await gql(admin, '{ versions(filter: { collection: { _eq: "articles" } }) { id key collection item hash delta user_created { email } } }');
  expect(all.errors).toBeUndefined();
  expect(all.data.versions).toEqual([
    {
      id: versionId,
      key: 'draft',
      collection: 'articles',
      item: String(item),
      hash: '1',
      delta: { title: 'draft', extra: { a: { x: 1, y: 2 } } },
      user_created: { email: 'admin@example.com' },
    },
  ]);
  const byId = 'query($id: ID!) { versions_by_id(id: $id) { id key } }';
  expect((await gql(admin, byId, { id: versionId })).data.versions_by_id).toEqual({ id: versionId, key: 'draft' });

  const role = (
    await request(url)
      .post('/roles')
      .set({ Authorization: `Bearer ${admin}` })
      .send({ name: 'No articles', app_access: true, admin_access: false })
      .expect(200)
  ).body.data;
  const email = `no-articles-${Date.now()}@example.com`;
  await request(url)
    .post('/users')
    .set({ Authorization: `Bearer ${admin}` })
    .send({ email, password: 'no-articles-password-1', role: role.id, status: 'active' })
    .expect(200);
  const other = (await request(url).post('/auth/login').send({ email, password: 'no-articles-password-1' }).expect(200)).body.data.access_token as string;
  const none = await gql(other, '{ versions { id } }');
  expect([none.errors, none.data.versions]).toEqual([undefined, []]);
  for (const [id, code] of [
    [versionId, 'FORBIDDEN'],
    ['00000000-0000-4000-8000-000000000000', 'NOT_FOUND'],
  ]) {
    const hidden = await gql(id === versionId ? other : admin, byId, { id });
    expect([hidden.data.versions_by_id, hidden.errors[0].extensions.code]).toEqual([null, code]);
  }
}

describe('content versions end to end (one process)', () => {
  let p: TestPlatform;
  beforeAll(async () => {
    p = await startTestPlatform();
  });
  afterAll(() => p?.close());

  it('save → revisions with version; promote → a revision without; delete → the version’s revisions stay', async () => {
    await versionsFlow(p.url, (await p.login()).access_token);
  });
});

const run = natsServerBinary() ? describe : describe.skip;

run('content versions end to end (one process per service)', () => {
  const platform = useDistributedPlatform('vellum-dist-versions-');

  it('the same flow across processes', async () => {
    await versionsFlow(platform.url, await platform.adminToken());
  }, 120_000);
});
