import request from 'supertest';
import { harness, type Harness } from './helpers';

// Many-to-any (Directus's builder): a page's sections are junction rows naming their collection and item; written
// nested in one request, read back with scoped paths (`sections.item:headings.title`).
let h: Harness;
const as = () => ({ Authorization: `Bearer ${h.admin}` });
const post = (url: string, body: object) => request(h.app).post(url).set(as()).send(body);

beforeAll(async () => {
  h = await harness();
  const id = { field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true } };
  const mk = (collection: string, fields: object[]) => post('/collections', { collection, fields: [id, ...fields] }).expect(200);
  await mk('pages', [{ field: 'title', type: 'string' }]);
  await mk('headings', [{ field: 'title', type: 'string' }]);
  await mk('texts', [{ field: 'body', type: 'text' }]);
  await mk('pages_sections', [
    { field: 'pages_id', type: 'integer' },
    { field: 'collection', type: 'string' },
    { field: 'item', type: 'string' },
  ]);
  await post('/relations', {
    collection: 'pages_sections',
    field: 'item',
    related_collection: null,
    meta: { one_collection_field: 'collection', one_allowed_collections: ['headings', 'texts'], junction_field: 'pages_id' },
  }).expect(200);
  await post('/relations', {
    collection: 'pages_sections',
    field: 'pages_id',
    related_collection: 'pages',
    meta: { one_field: 'sections', junction_field: 'item', one_deselect_action: 'delete' },
  }).expect(200);
});
afterAll(() => h.close());

describe('many-to-any', () => {
  it('writes a page with sections of two collections in one request, each event naming its carrier', async () => {
    const r = await post('/items/pages', {
      title: 'Home',
      sections: [
        { collection: 'headings', item: { title: 'Welcome' } },
        { collection: 'texts', item: { body: 'Hello there' } },
      ],
    });
    expect(r.status).toBe(200);
    const sections = (await h.pool.query(`SELECT pages_id, collection, item FROM content.pages_sections ORDER BY id`)).rows;
    expect(sections).toEqual([
      { pages_id: 1, collection: 'headings', item: '1' },
      { pages_id: 1, collection: 'texts', item: '1' },
    ]);
    const fields = (await request(h.app).get('/fields/pages/sections').set(as())).body.data;
    expect(fields.meta.special).toEqual(['m2a']);
    const bad = await post('/items/pages', { title: 'x', sections: [{ collection: 'pages', item: { title: 'nope' } }] });
    expect([bad.status, bad.body.errors[0].message]).toEqual([400, expect.stringContaining('must name one of its collections (headings, texts)')]);
  });

  it('reads scoped paths: each section’s item from its own collection, one statement per collection', async () => {
    const r = await request(h.app)
      .get('/items/pages/1')
      .query({ fields: 'title,sections.collection,sections.item:headings.title,sections.item:texts.body' })
      .set(as());
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({
      title: 'Home',
      sections: [
        { collection: 'headings', item: { title: 'Welcome' } },
        { collection: 'texts', item: { body: 'Hello there' } },
      ],
    });
    // the key each row is placed by is in the answer when asked (or `*`)
    const keyed = await request(h.app).get('/items/pages/1').query({ fields: 'sections.item:headings.id,sections.item:texts.*' }).set(as());
    expect(keyed.body.data.sections.map((s: { item: unknown }) => s.item)).toEqual([{ id: 1 }, { id: 1, body: 'Hello there' }]);
  });
});
