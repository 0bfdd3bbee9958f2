import {
  createDirectus,
  createField,
  createItem,
  createRelation,
  deleteRelation,
  readItem,
  readItems,
  readRelations,
  rest,
  staticToken,
  updateItem,
} from '@directus/sdk';
import request from 'supertest';
import { listenOn, type Listening } from '@vellum/http';
import { harness, type Harness } from './helpers';

interface Schema {
  sdk_authors: { id: number; name: string }[];
  sdk_posts: { id: number; title: string; author: number | Schema['sdk_authors'][number] | null; replies: Schema['sdk_replies'][number][] }[];
  sdk_replies: { id: number; body: string; post: number | null }[];
}

// The official SDK's relation helpers and nested data, unchanged: createRelation, createItem with a tree,
// readItems with `fields: ['*', {replies: ['*']}]` and `deep`.
describe('the official @directus/sdk with relations', () => {
  let h: Harness;
  let server: Listening;
  beforeAll(async () => {
    h = await harness();
    server = await listenOn(h.app, 0, '127.0.0.1');
    const admin = { Authorization: `Bearer ${h.admin}` };
    const id = { field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true } };
    await request(h.app)
      .post('/collections')
      .set(admin)
      .send({ collection: 'sdk_authors', fields: [id, { field: 'name', type: 'string' }] })
      .expect(200);
    await request(h.app)
      .post('/collections')
      .set(admin)
      .send({ collection: 'sdk_posts', fields: [id, { field: 'title', type: 'string' }] })
      .expect(200);
    await request(h.app)
      .post('/collections')
      .set(admin)
      .send({ collection: 'sdk_replies', fields: [id, { field: 'body', type: 'string' }] })
      .expect(200);
  });
  afterAll(async () => {
    await server.close(100);
    await h.close();
  });

  it('models, writes and reads a tree', async () => {
    const client = createDirectus<Schema>(server.url).with(staticToken(h.admin)).with(rest());
    await client.request(createField('sdk_posts', { field: 'author', type: 'integer', meta: { interface: 'select-dropdown-m2o', special: ['m2o'] } }));
    await client.request(createField('sdk_replies', { field: 'post', type: 'integer' }));
    const m2o = await client.request(createRelation({ collection: 'sdk_posts', field: 'author', related_collection: 'sdk_authors' }));
    expect(m2o).toMatchObject({ collection: 'sdk_posts', field: 'author', related_collection: 'sdk_authors' });
    await client.request(createRelation({ collection: 'sdk_replies', field: 'post', related_collection: 'sdk_posts', meta: { one_field: 'replies' } }));
    expect((await client.request(readRelations())).map((r) => `${r.collection}.${r.field}`)).toEqual(['sdk_posts.author', 'sdk_replies.post']);

    const post = await client.request(createItem('sdk_posts', { title: 'Hi', author: { name: 'Ann' }, replies: [{ body: 'one' }, { body: 'two' }] } as never));
    expect(post).toMatchObject({ title: 'Hi', author: 1 });
    await client.request(updateItem('sdk_posts', post.id, { replies: { create: [{ body: 'three' }], update: [], delete: [1] } } as never));
    const read = await client.request(
      readItems('sdk_posts', { fields: ['*', { author: ['name'] }, { replies: ['body'] }], deep: { replies: { _sort: ['-id'], _limit: 2 } } as never }),
    );
    expect(read).toEqual([{ id: post.id, title: 'Hi', author: { name: 'Ann' }, replies: [{ body: 'three' }, { body: 'two' }] }]);
    expect(await client.request(readItem('sdk_replies', 1))).toEqual({ id: 1, body: 'one', post: null });
    await client.request(deleteRelation('sdk_posts', 'author'));
    expect((await client.request(readRelations())).map((r) => r.field)).toEqual(['post']);
  });
});
