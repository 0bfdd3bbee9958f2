import { randomUUID } from 'node:crypto';
import {
  createDirectus,
  createField,
  createItem,
  deleteField,
  readField,
  readFields,
  readFieldsByCollection,
  readItems,
  rest,
  staticToken,
  updateField,
  updateItem,
} from '@directus/sdk';
import request from 'supertest';
import { listenOn, type Listening } from '@vellum/http';
import { harness, type Harness } from './helpers';

interface Article {
  id: number;
  title: string;
  views: number | null;
}
interface Schema {
  sdk_articles: Article[];
}

describe('the official @directus/sdk against the items service', () => {
  let h: Harness;
  let server: Listening;
  beforeAll(async () => {
    h = await harness();
    server = await listenOn(h.app, 0, '127.0.0.1');
    await request(h.app)
      .post('/collections')
      .set({ Authorization: `Bearer ${h.admin}` })
      .send({
        collection: 'sdk_articles',
        fields: [
          { field: 'title', type: 'string' },
          { field: 'views', type: 'integer' },
        ],
      });
    await h.grant('sdk-editor', { sdk_articles: { create: ['*'], read: ['*'], update: ['*'] } });
  });
  afterAll(async () => {
    await server.close(100);
    await h.close();
  });

  it('createItem, updateItem and readItems with a filter work unchanged', async () => {
    const client = createDirectus<Schema>(server.url)
      .with(staticToken(h.tokenFor('sdk-editor', randomUUID())))
      .with(rest());
    const created = await client.request(createItem('sdk_articles', { title: 'From the SDK', views: 1 }));
    expect(created).toMatchObject({ id: expect.any(Number), title: 'From the SDK', views: 1 });
    await client.request(createItem('sdk_articles', { title: 'Other', views: 50 }));
    const updated = await client.request(updateItem('sdk_articles', created.id, { views: 2 }));
    expect(updated).toEqual({ id: created.id, title: 'From the SDK', views: 2 });
    const found = await client.request(
      readItems('sdk_articles', { filter: { views: { _lt: 10 }, title: { _icontains: 'sdk' } }, fields: ['id', 'title', 'views'], sort: ['-id'], limit: 5 }),
    );
    expect(found).toEqual([{ id: created.id, title: 'From the SDK', views: 2 }]);
    const events = (await h.outbox()).filter((e) => e.subject.startsWith('items.sdk_articles.'));
    expect(events.map((e) => e.subject)).toEqual(['items.sdk_articles.create', 'items.sdk_articles.create', 'items.sdk_articles.update']);
  });

  it('surfaces the error envelope to the SDK', async () => {
    const client = createDirectus<Schema>(server.url)
      .with(staticToken(h.tokenFor('sdk-editor')))
      .with(rest());
    await expect(client.request(createItem('sdk_articles', { title: 5 as unknown as string }))).rejects.toMatchObject({
      errors: [{ extensions: { code: 'FAILED_VALIDATION' } }],
    });
  });

  it('createField, readFields, updateField and deleteField work unchanged (admin)', async () => {
    const client = createDirectus<Schema>(server.url).with(staticToken(h.admin)).with(rest());
    const created = await client.request(
      createField('sdk_articles', { field: 'summary', type: 'string', schema: { default_value: 'none' }, meta: { interface: 'input', note: 'short' } }),
    );
    expect(created).toMatchObject({ collection: 'sdk_articles', field: 'summary', type: 'string', schema: { default_value: 'none' }, meta: { note: 'short' } });
    const all = await client.request(readFields());
    expect(all.filter((f) => f.collection === 'sdk_articles').map((f) => f.field)).toEqual(['id', 'title', 'views', 'summary']);
    expect((await client.request(readFieldsByCollection('sdk_articles'))).map((f) => f.field)).toContain('summary');
    const updated = await client.request(updateField('sdk_articles', 'summary', { meta: { note: 'a summary' }, schema: { default_value: 'tbd' } }));
    expect(updated).toMatchObject({ schema: { default_value: 'tbd' }, meta: { note: 'a summary', interface: 'input' } });
    expect(await client.request(readField('sdk_articles', 'summary'))).toMatchObject({ meta: { note: 'a summary' } });
    expect(await client.request(createItem('sdk_articles', { title: 'With summary' }))).toMatchObject({ summary: 'tbd' });
    await client.request(deleteField('sdk_articles', 'summary'));
    await expect(client.request(readField('sdk_articles', 'summary'))).rejects.toMatchObject({ errors: [{ extensions: { code: 'FORBIDDEN' } }] });
    await expect(client.request(createField('sdk_articles', { field: 'title', type: 'string' }))).rejects.toMatchObject({
      errors: [{ extensions: { code: 'INVALID_PAYLOAD' } }],
    });
  });
});
