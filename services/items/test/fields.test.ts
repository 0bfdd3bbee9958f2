import request from 'supertest';
import { harness, type Harness } from './helpers';

let h: Harness;
beforeAll(async () => {
  h = await harness();
  const r = await request(h.app)
    .post('/collections')
    .set(bearer(h.admin))
    .send({
      collection: 'posts',
      meta: { icon: 'article' },
      fields: [
        { field: 'title', type: 'string', schema: { max_length: 40 } },
        { field: 'price', type: 'decimal', schema: { numeric_precision: 8, numeric_scale: 2 } },
        { field: 'n', type: 'integer' },
      ],
    });
  expect(r.status).toBe(200);
  const items = await request(h.app)
    .post('/items/posts')
    .set(bearer(h.admin))
    .send([{ title: 'a' }, { title: 'b' }]);
  expect(items.status).toBe(200);
});
afterAll(() => h.close());

const bearer = (t: string) => ({ Authorization: `Bearer ${t}` });
const api = () => ({
  get: (url: string, token = h.admin) => request(h.app).get(url).set(bearer(token)),
  post: (url: string, body: object, token = h.admin) => request(h.app).post(url).set(bearer(token)).send(body),
  patch: (url: string, body: object, token = h.admin) => request(h.app).patch(url).set(bearer(token)).send(body),
  del: (url: string, token = h.admin) => request(h.app).delete(url).set(bearer(token)),
});
const columns = async (table = 'posts') =>
  (
    await h.pool.query(
      `SELECT column_name, data_type, character_maximum_length, is_nullable, column_default FROM information_schema.columns
        WHERE table_schema = 'content' AND table_name = $1 ORDER BY ordinal_position`,
      [table],
    )
  ).rows;
const fieldChanges = async () =>
  (await h.outbox())
    .map((m) => m.payload as { collection: string; item: string; action: string; data: unknown; delta: unknown })
    .filter((p) => p.collection === 'vellum_fields' || p.collection === 'vellum_collections');
const relfilenode = async () => (await h.pool.query(`SELECT relfilenode FROM pg_class WHERE oid = 'content.posts'::regclass`)).rows[0].relfilenode;

describe('the schema API of fields', () => {
  it('reads fields in the Directus shape, admin only; an unknown collection or field is 403', async () => {
    const all = await api().get('/fields');
    expect(all.status).toBe(200);
    expect(all.body.data.filter((f: { collection: string }) => f.collection === 'posts').map((f: { field: string }) => f.field)).toEqual([
      'id',
      'title',
      'price',
      'n',
    ]);
    const one = await api().get('/fields/posts/title');
    expect(one.body.data).toMatchObject({
      collection: 'posts',
      field: 'title',
      type: 'string',
      schema: { name: 'title', table: 'posts', data_type: 'varchar(40)', max_length: 40, default_value: null, is_nullable: true, is_primary_key: false },
      meta: {
        collection: 'posts',
        field: 'title',
        note: null,
        interface: null,
        options: null,
        required: false,
        hidden: false,
        readonly: false,
        sort: 2,
        validation: null,
      },
    });
    expect((await api().get('/fields/posts')).body.data).toHaveLength(4);
    for (const url of ['/fields/nope', '/fields/posts/nope']) {
      const r = await api().get(url);
      expect([url, r.status, r.body.errors[0].extensions.code]).toEqual([url, 403, 'FORBIDDEN']);
    }
    const editor = h.tokenFor('editor');
    for (const r of [
      await api().get('/fields', editor),
      await api().get('/fields/posts', editor),
      await api().post('/fields/posts', { field: 'x', type: 'string' }, editor),
      await api().patch('/fields/posts/title', { meta: { note: 'x' } }, editor),
      await api().del('/fields/posts/title', editor),
      await api().patch('/collections/posts', { meta: { note: 'x' } }, editor),
      await request(h.app).get('/fields'),
    ]) {
      expect(r.status).toBe(403);
    }
  });

  it('adds a column online: existing items get its default, no table rewrite, and items write and read it at once', async () => {
    const before = await relfilenode();
    const r = await api().post('/fields/posts', {
      field: 'status',
      type: 'string',
      schema: { default_value: 'draft', is_nullable: false, max_length: 20 },
      meta: { interface: 'select-dropdown', note: 'workflow' },
    });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({
      collection: 'posts',
      field: 'status',
      schema: { default_value: 'draft', is_nullable: false, max_length: 20 },
      meta: { interface: 'select-dropdown', note: 'workflow', sort: 5 },
    });
    expect(await relfilenode()).toBe(before);
    const col = (await columns()).find((c) => c.column_name === 'status');
    expect(col).toMatchObject({ data_type: 'character varying', character_maximum_length: 20, is_nullable: 'NO' });

    const list = await api().get('/items/posts?sort=id');
    expect(list.body.data.map((i: { status: string }) => i.status)).toEqual(['draft', 'draft']);
    const created = await api().post('/items/posts', { title: 'c', status: 'published' });
    expect(created.status).toBe(200);
    expect(created.body.data.status).toBe('published');
    const read = await api().get(`/items/posts/${created.body.data.id}`);
    expect(read.body.data.status).toBe('published');
    const filtered = await api().get('/items/posts?filter[status][_eq]=published');
    expect(filtered.body.data.map((i: { title: string }) => i.title)).toEqual(['c']);

    const [change] = (await fieldChanges()).filter((c) => c.item === 'posts.status');
    expect(change).toMatchObject({ collection: 'vellum_fields', action: 'create', data: { field: 'status', schema: { default_value: 'draft' } } });
  });

  it('changes a default, nullability, meta and a safe type; refuses an unsafe type change', async () => {
    const r = await api().patch('/fields/posts/n', {
      schema: { default_value: 7, is_nullable: true, is_indexed: true },
      meta: { note: 'a count', validation: { n: { _gte: 0 } } },
    });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ schema: { default_value: 7, is_indexed: true }, meta: { note: 'a count', validation: { n: { _gte: 0 } } } });
    expect((await columns()).find((c) => c.column_name === 'n').column_default).toBe('7');
    expect((await api().post('/items/posts', { title: 'd' })).body.data.n).toBe(7);
    const idx = await h.pool.query(`SELECT 1 FROM pg_indexes WHERE schemaname = 'content' AND indexname = 'posts_n_idx'`);
    expect(idx.rowCount).toBe(1);
    // meta is merged: a later change keeps the note
    const m = await api().patch('/fields/posts/n', { meta: { hidden: true } });
    expect(m.body.data.meta).toMatchObject({ note: 'a count', hidden: true });

    const before = await relfilenode();
    const longer = await api().patch('/fields/posts/title', { schema: { max_length: 200 } });
    expect(longer.status).toBe(200);
    expect((await columns()).find((c) => c.column_name === 'title').character_maximum_length).toBe(200);
    const text = await api().patch('/fields/posts/title', { type: 'text' });
    expect(text.body.data).toMatchObject({ type: 'text', schema: { data_type: 'text' } });
    const precise = await api().patch('/fields/posts/price', { schema: { numeric_precision: 12 } });
    expect(precise.body.data.schema).toMatchObject({ numeric_precision: 12, numeric_scale: 2 });
    expect(await relfilenode()).toBe(before);
    expect((await api().post('/items/posts', { title: 'x'.repeat(300), price: '1234567890.12' })).status).toBe(200);

    for (const [url, body, says] of [
      ['/fields/posts/n', { type: 'string' }, 'not a change PostgreSQL can make safely'],
      ['/fields/posts/price', { schema: { numeric_scale: 4 } }, 'not a change PostgreSQL can make safely'],
      ['/fields/posts/status', { schema: { max_length: 5 } }, 'not a change PostgreSQL can make safely'],
      ['/fields/posts/id', { type: 'bigInteger' }, 'primary key'],
      ['/fields/posts/n', { schema: { is_unique: true } }, 'is_unique cannot be changed'],
      ['/fields/posts/n', { schema: { default_value: 'abc' } }, 'default_value is not a valid integer'],
      ['/fields/posts/nope', { meta: {} }, 'does not exist'],
      ['/fields/nope/n', { meta: {} }, 'collection "nope" does not exist'],
      ['/fields/posts/n', { type: 'alias' }, 'type must be one of'],
    ] as const) {
      const res = await api().patch(url, body);
      expect([url, res.status, res.body.errors[0].extensions.code]).toEqual([url, 400, 'INVALID_PAYLOAD']);
      expect(res.body.errors[0].message).toContain(says);
    }
    // meta.required (Directus): enforced by the next write — a value on create, never null
    expect((await api().patch('/fields/posts/price', { meta: { required: true } })).status).toBe(200);
    for (const res of [await api().post('/items/posts', { title: 'no price' }), await api().patch('/items/posts/1', { price: null })]) {
      expect([res.status, res.body.errors[0].extensions]).toEqual([
        400,
        expect.objectContaining({ code: 'FAILED_VALIDATION', field: 'price', type: 'required' }),
      ]);
    }
    expect((await api().post('/items/posts', { title: 'priced', price: '1' })).status).toBe(200);
    await api().patch('/fields/posts/price', { meta: { required: false } });
    const changes = (await fieldChanges()).filter((c) => c.item === 'posts.n');
    expect(changes.map((c) => c.action)).toEqual(['update', 'update']);
  });

  it('refuses a clashing, reserved or key name, an unknown type, a missing collection: 400 naming the problem', async () => {
    for (const [url, body, says] of [
      ['/fields/posts', { field: 'title', type: 'string' }, 'already exists'],
      ['/fields/posts', { field: 'id', type: 'integer' }, 'primary key'],
      ['/fields/posts', { field: 'xmin', type: 'integer' }, 'reserved'],
      ['/fields/posts', { field: 'vellum_x', type: 'integer' }, 'must not start with vellum_'],
      ['/fields/posts', { field: 'Bad', type: 'integer' }, 'must match'],
      ['/fields/posts', { field: 'k', type: 'alias' }, 'type must be one of'],
      ['/fields/posts', { field: 'k', type: 'uuid', schema: { is_primary_key: true } }, 'primary key'],
      ['/fields/posts', { field: 'k', type: 'integer', schema: { default_value: 'x' } }, 'default_value is not a valid integer'],
      ['/fields/nope', { field: 'k', type: 'integer' }, 'collection "nope" does not exist'],
    ] as const) {
      const res = await api().post(url, body);
      expect([body, res.status, res.body.errors[0].extensions.code]).toEqual([body, 400, 'INVALID_PAYLOAD']);
      expect(res.body.errors[0].message).toContain(says);
    }
    const del = await api().del('/fields/posts/id');
    expect([del.status, del.body.errors[0].message]).toEqual([400, expect.stringContaining('primary key')]);
    expect((await api().del('/fields/nope/x')).status).toBe(400);
  });

  it('a change the existing rows refuse leaves nothing applied (column, catalogue, activity)', async () => {
    const cols = await columns();
    const outbox = (await h.outbox()).length;
    const fields = (await api().get('/fields/posts')).body.data;
    // NOT NULL without a default on a table with rows: PostgreSQL refuses after the catalogue row was written
    const add = await api().post('/fields/posts', { field: 'must', type: 'integer', schema: { is_nullable: false } });
    expect([add.status, add.body.errors[0].extensions.code]).toEqual([400, 'INVALID_PAYLOAD']);
    expect(add.body.errors[0].message).toContain('field "must"');
    // a unique column with one default for several rows
    const uniq = await api().post('/fields/posts', { field: 'slug', type: 'string', schema: { is_unique: true, default_value: 's' } });
    expect(uniq.status).toBe(400);
    // NOT NULL where items hold null, with meta changed in the same request
    const nn = await api().patch('/fields/posts/price', { schema: { is_nullable: false }, meta: { note: 'never stored' } });
    expect([nn.status, nn.body.errors[0].message]).toEqual([400, expect.stringContaining('field "price"')]);
    // a meta text PostgreSQL cannot store (NUL): refused by the database inside the change's transaction (was a 500)
    const nul = await api().post('/fields/posts', { field: 'noted', type: 'string', meta: { note: 'a\u0000b' } });
    expect([nul.status, nul.body.errors[0].extensions]).toEqual([400, { code: 'INVALID_PAYLOAD', reason: 'text cannot contain NUL characters (\\u0000)' }]);
    expect(await columns()).toEqual(cols);
    expect((await api().get('/fields/posts')).body.data).toEqual(fields);
    expect((await h.outbox()).length).toBe(outbox);
  });

  it('changes the collection meta (merged, fields checked), recorded as a vellum_collections revision', async () => {
    const r = await api().patch('/collections/posts', {
      meta: { note: 'blog posts', sort_field: 'n', archive_field: 'status', display_template: '{{title}}', versioning: true },
    });
    expect(r.status).toBe(200);
    expect(r.body.data.meta).toEqual({
      icon: 'article',
      note: 'blog posts',
      sort_field: 'n',
      archive_field: 'status',
      display_template: '{{title}}',
      versioning: true,
    });
    expect((await api().get('/collections/posts')).body.data.meta.note).toBe('blog posts');
    const bad = await api().patch('/collections/posts', { meta: { sort_field: 'nope' } });
    expect([bad.status, bad.body.errors[0].message]).toEqual([400, expect.stringContaining('sort_field')]);
    expect((await api().patch('/collections/nope', { meta: {} })).status).toBe(400);
    expect((await api().patch('/collections/posts', { meta: { versioning: 'yes' } })).status).toBe(400);
    const [change] = (await fieldChanges()).filter((c) => c.collection === 'vellum_collections' && c.action === 'update');
    expect(change).toMatchObject({ item: 'posts', action: 'update', data: { collection: 'posts', meta: { note: 'blog posts' } } });
    // the archive field cannot be dropped while the collection names it
    expect((await api().del('/fields/posts/status')).status).toBe(400);
    await api().patch('/collections/posts', { meta: { archive_field: null } });
  });

  it('drops a column: its data goes, items no longer have it, the drop is recorded', async () => {
    const r = await api().del('/fields/posts/status');
    expect(r.status).toBe(204);
    expect((await columns()).map((c) => c.column_name)).not.toContain('status');
    expect((await api().get('/fields/posts/status')).status).toBe(403);
    const items = await api().get('/items/posts');
    expect(items.status).toBe(200);
    expect(items.body.data[0]).not.toHaveProperty('status');
    const w = await api().post('/items/posts', { title: 'e', status: 'x' });
    expect([w.status, w.body.errors[0].extensions.code]).toEqual([400, 'INVALID_PAYLOAD']);
    const [change] = (await fieldChanges()).filter((c) => c.item === 'posts.status' && c.action === 'delete');
    expect(change).toMatchObject({ collection: 'vellum_fields', data: null });
    // the name is free again
    expect((await api().post('/fields/posts', { field: 'status', type: 'boolean', schema: { default_value: true } })).status).toBe(200);
    expect((await api().get('/items/posts?limit=1')).body.data[0].status).toBe(true);
  });
});
