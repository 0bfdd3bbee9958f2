import request from 'supertest';
import { collectionWithId, eventually, startTestPlatform, type TestPlatform } from './platform-harness';

// The schema API through the gateway of the embedded platform: a field added, written, then dropped — the item's
// revisions keep the dropped field's values, and each schema change has its vellum_fields revision.
describe('fields → revisions, end to end through the gateway', () => {
  let p: TestPlatform;
  let admin: string;
  beforeAll(async () => {
    p = await startTestPlatform();
    admin = (await p.login()).access_token;
  });
  afterAll(() => p?.close());

  const as = (token: string) => ({ Authorization: `Bearer ${token}` });
  const revisions = (collection: string, min: number) =>
    eventually(async () => {
      const r = await request(p.url)
        .get('/revisions')
        .query({ filter: JSON.stringify({ collection: { _eq: collection } }), fields: 'id,item,data,delta,activity.action', sort: 'id' })
        .set(as(admin));
      return r.body.data?.length >= min ? (r.body.data as { item: string; data: Record<string, unknown> | null; activity: { action: string } }[]) : undefined;
    });

  it('a dropped field goes from the items, its values stay readable in their revisions', async () => {
    const api = request(p.url);
    await api
      .post('/collections')
      .set(as(admin))
      .send(collectionWithId('notes', [{ field: 'title', type: 'string' }]))
      .expect(200);
    const item = (await api.post('/items/notes').set(as(admin)).send({ title: 'one' }).expect(200)).body.data;
    const added = await api
      .post('/fields/notes')
      .set(as(admin))
      .send({ field: 'mood', type: 'string', schema: { default_value: 'calm' } });
    expect([added.status, added.body.data?.field]).toEqual([200, 'mood']);
    expect((await api.get(`/items/notes/${item.id}`).set(as(admin))).body.data).toEqual({ id: item.id, title: 'one', mood: 'calm' });
    await api.patch(`/items/notes/${item.id}`).set(as(admin)).send({ mood: 'happy' }).expect(200);
    await api.delete('/fields/notes/mood').set(as(admin)).expect(204);
    expect((await api.get(`/items/notes/${item.id}`).set(as(admin))).body.data).toEqual({ id: item.id, title: 'one' });

    const items = await revisions('notes', 2);
    expect(items.map((r) => [r.activity.action, r.data])).toEqual([
      ['create', { id: item.id, title: 'one' }],
      ['update', { id: item.id, title: 'one', mood: 'happy' }],
    ]);
    const fields = await revisions('vellum_fields', 2);
    expect(fields.map((r) => [r.item, r.activity.action])).toEqual([
      ['notes.mood', 'create'],
      ['notes.mood', 'delete'],
    ]);
    expect(fields[0]!.data).toMatchObject({ collection: 'notes', field: 'mood', type: 'string', schema: { default_value: 'calm' } });
  });

  it('shows each collection the caller may read in /server/specs/oas, a schema change at once', async () => {
    const api = request(p.url);
    type Doc = { paths: Record<string, Record<string, unknown>>; components: { schemas: Record<string, { properties: Record<string, unknown> }> } };
    const oas = async (token?: string) => (await (token ? api.get('/server/specs/oas').set(as(token)) : api.get('/server/specs/oas')).expect(200)).body as Doc;
    await api
      .post('/collections')
      .set(as(admin))
      .send(collectionWithId('books', [{ field: 'title', type: 'string' }]))
      .expect(200);
    const before = await oas(admin);
    expect(Object.keys(before.paths['/items/books']!)).toEqual(['get', 'post']);
    expect(Object.keys(before.paths['/items/books/{id}']!)).toEqual(['get', 'patch', 'delete']);
    expect(Object.keys(before.components.schemas.ItemsBooks!.properties)).toEqual(['id', 'title']);
    await api.post('/fields/books').set(as(admin)).send({ field: 'pages', type: 'integer' }).expect(200);
    expect(Object.keys((await oas(admin)).components.schemas.ItemsBooks!.properties)).toEqual(['id', 'title', 'pages']);
    // the public role reads no collection: the API's own paths only
    const anonymous = await oas();
    expect(anonymous.paths['/items/books']).toBeUndefined();
    expect(anonymous.paths['/items/{collection}']).toBeDefined();
  });
});
