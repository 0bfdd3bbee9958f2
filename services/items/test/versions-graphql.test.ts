import request from 'supertest';
import { harness, type Harness } from './helpers';

// Issue 36: the items subgraph's `versions` / `versions_by_id` (composed into /graphql/system by the gateway) answer
// what GET /versions and /versions/:id answer, with the same rules: versions of readable collections only, each
// delta cut to the caller's readable fields; an unknown or hidden id → null with a FORBIDDEN error.
let h: Harness;
const bearer = (t: string) => ({ Authorization: `Bearer ${t}` });
const post = (url: string, body: object, token = h.admin) => request(h.app).post(url).set(bearer(token)).send(body);
const gql = async (query: string, variables: object = {}, token = h.admin) => (await post('/graphql', { query, variables }, token).expect(200)).body;
const FIELDS =
  'id key name collection item hash date_created date_updated user_created { id } user_updated { id } delta publish_at publish_force publish_status publish_error';
let draft: { id: string };
let secret: { id: string };

beforeAll(async () => {
  h = await harness();
  const fields = [
    { field: 'title', type: 'string' },
    { field: 'body', type: 'text' },
  ];
  await post('/collections', { collection: 'articles', meta: { versioning: true }, fields }).expect(200);
  await post('/collections', { collection: 'secret', meta: { versioning: true }, fields }).expect(200);
  const a = (await post('/items/articles', { title: 'live', body: 'b' }).expect(200)).body.data.id;
  const s = (await post('/items/secret', { title: 's' }).expect(200)).body.data.id;
  draft = (await post('/versions', { key: 'draft', name: 'Draft', collection: 'articles', item: a }).expect(200)).body.data;
  await post(`/versions/${draft.id}/save`, { title: 'draft title', body: 'draft body' }).expect(200);
  secret = (await post('/versions', { key: 'draft', collection: 'secret', item: s }).expect(200)).body.data;
  await h.grant('reader', { articles: { read: ['*'] } });
  await h.grant('titleonly', { articles: { read: ['id', 'title'] } });
});
afterAll(() => h.close());

it('versions: every field as REST has it (users as vellum_users references), filter and sort', async () => {
  const rest = (await request(h.app).get('/versions').query({ sort: 'collection' }).set(bearer(h.admin)).expect(200)).body.data;
  const g = await gql(`{ versions(sort: ["collection"]) { ${FIELDS} } }`);
  expect(g.errors).toBeUndefined();
  const user = (u: string | null) => (u ? { id: u } : null);
  expect(g.data.versions).toEqual(
    rest.map((v: Record<string, string | null>) => ({ ...v, user_created: user(v.user_created!), user_updated: user(v.user_updated!) })),
  );
  expect(g.data.versions.map((v: { collection: string }) => v.collection)).toEqual(['articles', 'secret']);
  expect(g.data.versions[0]).toMatchObject({ key: 'draft', name: 'Draft', hash: '1', delta: { title: 'draft title', body: 'draft body' } });
  const filtered = await gql('query($f: vellum_versions_filter) { versions(filter: $f, limit: 5) { id } }', { f: { collection: { _eq: 'secret' } } });
  expect(filtered.data.versions).toEqual([{ id: secret.id }]);
});

it('a role sees the versions of the collections it may read, each delta cut to its readable fields', async () => {
  const reader = await gql('{ versions { id collection delta } }', {}, h.tokenFor('reader'));
  expect(reader.data.versions).toEqual([{ id: draft.id, collection: 'articles', delta: { title: 'draft title', body: 'draft body' } }]);
  const titleOnly = await gql('{ versions { id delta } }', {}, h.tokenFor('titleonly'));
  expect(titleOnly.data.versions).toEqual([{ id: draft.id, delta: { title: 'draft title' } }]);
  const none = await gql('{ versions { id } }', {}, h.tokenFor('nobody'));
  expect(none.data.versions).toEqual([]);
});

it('versions_by_id: the version; hidden → null and FORBIDDEN, unknown or not a uuid → null and NOT_FOUND (as REST)', async () => {
  const one = await gql('query($id: ID!) { versions_by_id(id: $id) { id key item delta } }', { id: draft.id }, h.tokenFor('titleonly'));
  expect(one.data.versions_by_id).toEqual({ id: draft.id, key: 'draft', item: expect.any(String), delta: { title: 'draft title' } });
  for (const [id, code] of [
    [secret.id, 'FORBIDDEN'],
    ['00000000-0000-4000-8000-000000000000', 'NOT_FOUND'],
    ['nope', 'NOT_FOUND'],
  ]) {
    const hidden = await gql('query($id: ID!) { versions_by_id(id: $id) { id } }', { id }, h.tokenFor('reader'));
    expect(hidden.data.versions_by_id).toBeNull();
    expect(hidden.errors[0].extensions.code).toBe(code);
  }
});
