import request from 'supertest';
import { harness, type Harness } from './helpers';

let h: Harness;
const bearer = (t: string) => ({ Authorization: `Bearer ${t}` });
const get = (url: string, token = h.admin) => request(h.app).get(url).set(bearer(token));
const post = (url: string, body: object, token = h.admin) => request(h.app).post(url).set(bearer(token)).send(body);
const patch = (url: string, body: object) => request(h.app).patch(url).set(bearer(h.admin)).send(body);
const del = (url: string) => request(h.app).delete(url).set(bearer(h.admin));
const collection = (
  name: string,
  fields: object[],
  pk: object = { field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true } },
) => post('/collections', { collection: name, fields: [pk, ...fields] }).expect(200);
/** The content tables' foreign keys, as PostgreSQL holds them. */
const foreignKeys = async () =>
  (
    await h.pool.query(
      `SELECT conname, confdeltype, convalidated FROM pg_constraint WHERE contype = 'f' AND connamespace = 'content'::regnamespace ORDER BY conname`,
    )
  ).rows;
const relationChanges = async () =>
  (await h.outbox()).map((m) => m.payload as { collection: string; item: string; action: string }).filter((p) => p.collection === 'vellum_relations');

beforeAll(async () => {
  h = await harness();
  await collection('authors', [{ field: 'name', type: 'string' }]);
  await collection('articles', [
    { field: 'title', type: 'string' },
    { field: 'author', type: 'integer' },
    { field: 'slug', type: 'string' },
  ]);
  await collection('comments', [
    { field: 'body', type: 'text' },
    { field: 'article', type: 'integer' },
    { field: 'about', type: 'integer' },
  ]);
  await collection('tags', [{ field: 'name', type: 'string' }]);
  await collection('articles_tags', [
    { field: 'articles_id', type: 'integer' },
    { field: 'tags_id', type: 'integer' },
  ]);
});
afterAll(() => h.close());

describe('the relations API', () => {
  it('adds a many-to-one relation as a validated foreign key, records it, and lists it in the Directus shape', async () => {
    const r = await post('/relations', { collection: 'articles', field: 'author', related_collection: 'authors' });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({
      collection: 'articles',
      field: 'author',
      related_collection: 'authors',
      meta: { many_collection: 'articles', many_field: 'author', one_collection: 'authors', one_field: null, one_deselect_action: 'nullify' },
      schema: { on_delete: 'SET NULL', foreign_key_table: 'authors' },
    });
    expect(await foreignKeys()).toEqual([{ conname: 'articles_author_fkey', confdeltype: 'n', convalidated: true }]);
    expect((await get('/relations')).body.data.map((x: { field: string }) => x.field)).toEqual(['author']);
    expect((await get('/relations/articles/author')).body.data.related_collection).toBe('authors');
    expect(await relationChanges()).toEqual([expect.objectContaining({ item: 'articles.author', action: 'create' })]);
    // the database now refuses a key the related collection does not have
    const orphan = await post('/items/articles', { title: 'x', author: 999 });
    expect(orphan.status).toBe(400);
    expect(orphan.body.errors[0].message).toBe('Value for field "author" has no related item in "authors".');
  });

  it('adds a one-to-many alias and a many-to-many junction', async () => {
    const o2m = await post('/relations', {
      collection: 'comments',
      field: 'article',
      related_collection: 'articles',
      meta: { one_field: 'comments', one_deselect_action: 'delete' },
      schema: { on_delete: 'CASCADE' },
    });
    expect(o2m.status).toBe(200);
    expect(o2m.body.data.meta).toMatchObject({ one_field: 'comments', one_deselect_action: 'delete' });
    const a = await post('/relations', {
      collection: 'articles_tags',
      field: 'articles_id',
      related_collection: 'articles',
      meta: { one_field: 'tags', junction_field: 'tags_id' },
      schema: { on_delete: 'CASCADE' },
    });
    const b = await post('/relations', { collection: 'articles_tags', field: 'tags_id', related_collection: 'tags', meta: { junction_field: 'articles_id' } });
    expect([a.status, b.status]).toEqual([200, 200]);
    expect((await get('/relations/articles_tags')).body.data.map((x: { field: string }) => x.field)).toEqual(['articles_id', 'tags_id']);
    expect((await foreignKeys()).find((k) => k.conname === 'comments_article_fkey')).toMatchObject({ confdeltype: 'c' });
    // the aliases are fields of the one side (Directus `type: "alias"`), the key fields name their related collection
    const fields = (await get('/fields/articles')).body.data as { field: string; type: string; meta: { special: string[] | null } }[];
    expect(fields.filter((f) => f.type === 'alias').map((f) => [f.field, f.meta.special])).toEqual([
      ['comments', ['o2m']],
      ['tags', ['m2m']],
    ]);
    expect((await get('/fields/articles/tags')).body.data).toMatchObject({ type: 'alias', schema: null });
    expect((await get('/fields/comments/article')).body.data.schema.foreign_key_table).toBe('articles');
  });

  it.each([
    [{ collection: 'nope', field: 'x', related_collection: 'authors' }, 'collection "nope" does not exist'],
    [{ collection: 'articles', field: 'nope', related_collection: 'authors' }, 'field "nope" does not exist'],
    [{ collection: 'articles', field: 'slug', related_collection: 'missing' }, 'related_collection "missing" does not exist'],
    [{ collection: 'articles', field: 'slug', related_collection: 'authors' }, 'cannot hold a key of "authors"'],
    [{ collection: 'articles', field: 'author', related_collection: 'authors' }, 'already has a relation'],
    [{ collection: 'comments', field: 'about', related_collection: 'articles', meta: { one_field: 'title' } }, 'already has a field "title"'],
    [{ collection: 'articles_tags', field: 'id', related_collection: 'tags', meta: { junction_field: 'nothing' } }, 'is not a junction'],
    [{ collection: 'articles', field: 'slug' }, 'meta.one_collection_field is required'],
  ])('refuses %j with 400 naming the problem, applying nothing', async (body, reason) => {
    const before = { keys: await foreignKeys(), relations: (await get('/relations')).body.data.length, changes: (await relationChanges()).length };
    const r = await post('/relations', body);
    expect(r.status).toBe(400);
    expect(r.body.errors[0].extensions.code).toBe('INVALID_PAYLOAD');
    expect(r.body.errors[0].message).toContain(reason);
    expect({ keys: await foreignKeys(), relations: (await get('/relations')).body.data.length, changes: (await relationChanges()).length }).toEqual(before);
  });

  it('refuses a relation existing rows break (a key with no related row): 400, nothing applied', async () => {
    await collection('reviews', [{ field: 'article', type: 'integer' }]);
    await post('/items/reviews', { article: 12345 }).expect(200);
    const r = await post('/relations', { collection: 'reviews', field: 'article', related_collection: 'articles' });
    expect(r.status).toBe(400);
    expect(r.body.errors[0].message).toContain('"articles" does not have');
    expect((await foreignKeys()).some((k) => k.conname === 'reviews_article_fkey')).toBe(false);
    expect((await get('/relations/reviews')).body.data).toEqual([]);
  });

  it('changes on_delete and meta, and removes a relation (the column and its values stay)', async () => {
    const r = await patch('/relations/articles/author', { schema: { on_delete: 'CASCADE' }, meta: { one_field: 'articles' } });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ schema: { on_delete: 'CASCADE' }, meta: { one_field: 'articles' } });
    expect((await foreignKeys()).find((k) => k.conname === 'articles_author_fkey')).toMatchObject({ confdeltype: 'c' });
    // a relation with an alias changed again (its alias is its own, not a clash), sent whole as Directus's app does
    const again = await patch('/relations/articles/author', { ...r.body.data, schema: { on_delete: 'SET NULL' } });
    expect([again.status, again.body.data?.meta.one_field]).toEqual([200, 'articles']);
    const moved = await patch('/relations/articles/author', { related_collection: 'tags' });
    expect([moved.status, moved.body.errors?.[0].message]).toEqual([400, expect.stringContaining("a relation's ends cannot change")]);
    expect((await del('/relations/articles/author')).status).toBe(204);
    expect((await foreignKeys()).some((k) => k.conname === 'articles_author_fkey')).toBe(false);
    expect((await get('/relations/articles/author')).status).toBe(403);
    expect((await get('/fields/articles/author')).status).toBe(200);
    expect((await relationChanges()).filter((c) => c.item === 'articles.author').map((c) => c.action)).toEqual(['create', 'update', 'update', 'delete']);
  });

  it('loses its alias when the alias field is removed (DELETE /fields), which PATCH /fields points to the relation', async () => {
    await collection('shelves', [{ field: 'name', type: 'string' }]);
    await collection('books', [{ field: 'shelf', type: 'integer' }]);
    await post('/relations', { collection: 'books', field: 'shelf', related_collection: 'shelves', meta: { one_field: 'books' } }).expect(200);
    const edit = await patch('/fields/shelves/books', { meta: { note: 'x' } });
    expect([edit.status, edit.body.errors[0].message]).toEqual([400, expect.stringContaining('PATCH /relations/books/shelf')]);
    expect((await del('/fields/shelves/books')).status).toBe(204);
    expect((await get('/fields/shelves/books')).status).toBe(403);
    expect((await get('/relations/books/shelf')).body.data).toMatchObject({ related_collection: 'shelves', meta: { one_field: null } });
    expect((await get('/fields/books/shelf')).body.data.schema.foreign_key_table).toBe('shelves');
    expect((await relationChanges()).filter((c) => c.item === 'books.shelf').map((c) => c.action)).toEqual(['create', 'update']);
    expect((await del('/fields/shelves/books')).status).toBe(400);
  });

  it('goes with its key field when the field is dropped (recorded)', async () => {
    await collection('owners2', [{ field: 'name', type: 'string' }]);
    await collection('cars', [{ field: 'owner', type: 'integer' }]);
    await post('/relations', { collection: 'cars', field: 'owner', related_collection: 'owners2' }).expect(200);
    expect((await del('/fields/cars/owner')).status).toBe(204);
    expect((await get('/relations/cars')).body.data).toEqual([]);
    expect((await relationChanges()).filter((c) => c.item === 'cars.owner').map((c) => c.action)).toEqual(['create', 'delete']);
  });

  it("keeps a deleted item's related items consistent: a SET NULL key field is not made required; a held item is a 400", async () => {
    await collection('houses', [{ field: 'name', type: 'string' }]);
    await collection('rooms', [{ field: 'house', type: 'integer' }]);
    await collection('doors', [{ field: 'house', type: 'integer' }]);
    await post('/relations', { collection: 'rooms', field: 'house', related_collection: 'houses' }).expect(200);
    await post('/relations', { collection: 'doors', field: 'house', related_collection: 'houses', schema: { on_delete: 'RESTRICT' } }).expect(200);
    const required = await patch('/fields/rooms/house', { schema: { is_nullable: false } });
    expect([required.status, required.body.errors?.[0].message]).toEqual([400, expect.stringContaining('schema.on_delete SET NULL')]);
    await post(
      '/items/houses',
      [{ name: 'a', doors: [] }].map(({ name }) => ({ name })),
    ).expect(200);
    await post('/items/doors', { house: 1 }).expect(200);
    const held = await del('/items/houses/1');
    expect([held.status, held.body.errors[0].extensions]).toEqual([400, { code: 'FAILED_VALIDATION', field: 'id', type: 'relation' }]);
    // a key field made required before this was refused (or by hand): the delete is a 400 naming it, not a 500
    await post('/items/houses', { name: 'b' }).expect(200);
    await post('/items/rooms', { house: 2 }).expect(200);
    await h.pool.query('ALTER TABLE content.rooms ALTER COLUMN house SET NOT NULL');
    const setNull = await del('/items/houses/2');
    expect([setNull.status, setNull.body.errors[0].message]).toEqual([
      400,
      'The item is still related to items of "rooms", whose field "house" can\'t be null.',
    ]);
    expect((await get('/items/houses?fields=id')).body.data).toEqual([{ id: 1 }, { id: 2 }]);
  });

  it('is read by every caller for the collections it may use, changed by administrators only', async () => {
    await h.grant('editors', { comments: { read: ['*'] }, articles: { read: ['*'] } });
    const user = h.tokenFor('editors');
    const seen = await get('/relations', user);
    expect(seen.status).toBe(200);
    expect(seen.body.data.map((r: { collection: string; field: string }) => `${r.collection}.${r.field}`)).toEqual(['comments.article']);
    expect((await get('/relations/articles_tags/articles_id', user)).status).toBe(403);
    expect((await post('/relations', { collection: 'articles', field: 'author', related_collection: 'authors' }, user)).status).toBe(403);
  });

  it('goes with a collection that is deleted (the other side keeps its column)', async () => {
    await collection('owners', [{ field: 'name', type: 'string' }]);
    await collection('pets', [{ field: 'owner', type: 'integer' }]);
    await post('/relations', { collection: 'pets', field: 'owner', related_collection: 'owners' }).expect(200);
    expect((await del('/collections/owners')).status).toBe(204);
    expect((await get('/relations/pets')).body.data).toEqual([]);
    expect((await relationChanges()).filter((c) => c.item === 'pets.owner').map((c) => c.action)).toEqual(['create', 'delete']);
    const collections = (await h.outbox())
      .map((m) => m.payload as { collection: string; item: string; action: string })
      .filter((p) => p.collection === 'vellum_collections' && p.item === 'owners');
    expect(collections.map((c) => c.action)).toEqual(['create', 'delete']);
    expect((await post('/items/pets', { owner: 7 })).status).toBe(200);
  });
});
