import {
  compareContentVersion,
  createContentVersion,
  createDirectus,
  deleteContentVersion,
  promoteContentVersion,
  readContentVersion,
  readContentVersions,
  readItem,
  readItems,
  rest,
  saveToContentVersion,
  staticToken,
  updateContentVersion,
} from '@directus/sdk';
import request from 'supertest';
import { listenOn, type Listening } from '@vellum/http';
import { harness, type Harness } from './helpers';

// Issue 36: the official @directus/sdk content-version helpers, unchanged, against /versions (Directus's documented
// flow: create a version, save to it, compare, promote with the main hash, delete).
interface Post {
  id: number;
  title: string;
  body: string | null;
}
interface Schema {
  sdk_posts: Post[];
}

describe('the @directus/sdk version helpers', () => {
  let h: Harness;
  let server: Listening;
  beforeAll(async () => {
    h = await harness();
    server = await listenOn(h.app, 0, '127.0.0.1');
    const admin = { Authorization: `Bearer ${h.admin}` };
    await request(h.app)
      .post('/collections')
      .set(admin)
      .send({
        collection: 'sdk_posts',
        meta: { versioning: true },
        fields: [
          { field: 'title', type: 'string' },
          { field: 'body', type: 'text' },
        ],
      })
      .expect(200);
    await request(h.app).post('/items/sdk_posts').set(admin).send({ title: 'live', body: 'kept' }).expect(200);
    await h.grant('sdk-editor', { sdk_posts: { read: ['*'], update: ['*'] } });
  });
  afterAll(async () => {
    await server.close(100);
    await h.close();
  });

  it('create, read, rename, save, compare, promote and delete a version', async () => {
    const client = createDirectus<Schema>(server.url)
      .with(staticToken(h.tokenFor('sdk-editor')))
      .with(rest());
    const v = await client.request(createContentVersion({ key: 'draft', name: 'Draft', collection: 'sdk_posts', item: '1' }));
    expect(v).toMatchObject({ key: 'draft', name: 'Draft', collection: 'sdk_posts', item: '1' });
    expect(await client.request(readContentVersions({ filter: { collection: { _eq: 'sdk_posts' } }, fields: ['key'] }))).toEqual([{ key: 'draft' }]);
    expect(await client.request(updateContentVersion(v.id, { name: 'Renamed' }))).toMatchObject({ name: 'Renamed' });
    expect(await client.request(saveToContentVersion(v.id, { title: 'draft title' }))).toMatchObject({ id: 1, title: 'draft title', body: 'kept' });
    const compared = await client.request(compareContentVersion(v.id));
    expect(compared).toMatchObject({ outdated: false, current: { title: 'draft title' }, main: { title: 'live' } });
    await expect(client.request(promoteContentVersion(v.id, String(Number(compared.mainHash) + 1)))).rejects.toMatchObject({
      errors: [{ extensions: { code: 'VERSION_HASH_MISMATCH', mainHash: compared.mainHash } }],
    });
    expect(await client.request(promoteContentVersion(v.id, compared.mainHash))).toBe(1);
    expect(await client.request(readItem('sdk_posts', 1))).toEqual({ id: 1, title: 'draft title', body: 'kept' });
    await client.request(deleteContentVersion(v.id));
    await expect(client.request(readContentVersion(v.id))).rejects.toMatchObject({ errors: [{ extensions: { code: 'NOT_FOUND' } }] });
  });

  it('readItem / readItems with { version } read the version laid over the item (second slice of issue 36)', async () => {
    const client = createDirectus<Schema>(server.url)
      .with(staticToken(h.tokenFor('sdk-editor')))
      .with(rest());
    const v = await client.request(createContentVersion({ key: 'preview', collection: 'sdk_posts', item: '1' }));
    await client.request(saveToContentVersion(v.id, { body: 'preview body' }));
    const live = await client.request(readItem('sdk_posts', 1));
    expect(await client.request(readItem('sdk_posts', 1, { version: 'preview' }))).toEqual({ ...live, body: 'preview body' });
    const found = await client.request(readItems('sdk_posts', { version: 'preview', filter: { body: { _eq: 'preview body' } }, fields: ['id'] }));
    expect(found).toEqual([{ id: 1 }]);
    expect(await client.request(readItem('sdk_posts', 1))).toEqual(live);
  });
});
