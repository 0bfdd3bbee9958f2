import request from 'supertest';
import type { Harness } from './helpers';

/**
 * Collections with an auto-increment `id` and the fields of a compact spec (`'title:string,author:integer'`), then
 * the relations (POST /relations bodies), as the admin; any failure throws.
 */
export async function createSchema(h: Harness, collections: Record<string, string>, relations: object[] = []): Promise<void> {
  const id = { field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true } };
  const send = (url: string, body: object) =>
    request(h.app)
      .post(url)
      .set({ Authorization: `Bearer ${h.admin}` })
      .send(body)
      .expect(200);
  for (const [collection, spec] of Object.entries(collections)) {
    const fields = spec.split(',').map((f) => {
      const [field, type] = f.split(':');
      return { field, type };
    });
    await send('/collections', { collection, fields: [id, ...fields] });
  }
  for (const r of relations) await send('/relations', r);
}

/** The blog of the nested-write tests: authors ← articles → comments (delete on deselect), notes (nullify), tags through a junction. */
export const blog = {
  collections: {
    authors: 'name:string',
    articles: 'title:string,author:integer',
    comments: 'body:string,article:integer',
    notes: 'text:string,article:integer',
    tags: 'name:string',
    articles_tags: 'articles_id:integer,tags_id:integer',
  },
  relations: [
    { collection: 'articles', field: 'author', related_collection: 'authors' },
    { collection: 'comments', field: 'article', related_collection: 'articles', meta: { one_field: 'comments', one_deselect_action: 'delete' } },
    { collection: 'notes', field: 'article', related_collection: 'articles', meta: { one_field: 'notes' } },
    {
      collection: 'articles_tags',
      field: 'articles_id',
      related_collection: 'articles',
      meta: { one_field: 'tags', junction_field: 'tags_id', one_deselect_action: 'delete' },
    },
    { collection: 'articles_tags', field: 'tags_id', related_collection: 'tags', meta: { junction_field: 'articles_id' } },
  ],
};
