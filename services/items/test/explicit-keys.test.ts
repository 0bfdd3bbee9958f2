import request from 'supertest';
import { harness, type Harness } from './helpers';
import { createSchema } from './schema-fixtures';

// Items created with keys of their own in an auto-increment collection (an import) move its sequence past them:
// the next generated key is never one already taken (PostgreSQL's identity does not move by itself, and a POST
// without a key failed with "id has to be unique" once the sequence reached an imported key).
let h: Harness;
const auth = () => ({ Authorization: `Bearer ${h.admin}` });
const create = (collection: string, body: object) => request(h.app).post(`/items/${collection}`).set(auth()).send(body);

beforeAll(async () => {
  h = await harness();
  await createSchema(h, { imports: 'title:string', shelves: 'name:string', books: 'title:string,shelf:integer' }, [
    { collection: 'books', field: 'shelf', related_collection: 'shelves', meta: { one_field: 'books' } },
  ]);
});
afterAll(() => h.close());

const ids = (r: request.Response) => (Array.isArray(r.body.data) ? r.body.data : [r.body.data]).map((i: { id: number }) => i.id);

it('one item, then a list, with their own keys: the generated keys come after the largest', async () => {
  expect(ids(await create('imports', { id: 3, title: 'imported' }).expect(200))).toEqual([3]);
  expect(ids(await create('imports', [{ title: 'a' }, { title: 'b' }, { title: 'c' }]).expect(200))).toEqual([4, 5, 6]);
  expect(
    ids(
      await create('imports', [
        { id: 20, title: 'x' },
        { id: 10, title: 'y' },
      ]).expect(200),
    ),
  ).toEqual([20, 10]);
  expect(ids(await create('imports', { title: 'next' }).expect(200))).toEqual([21]);
  // a key below the sequence leaves it where it is
  expect(ids(await create('imports', { id: 8, title: 'gap' }).expect(200))).toEqual([8]);
  expect(ids(await create('imports', { title: 'after' }).expect(200))).toEqual([22]);
});

it('a list naming a key after an item without one: the generated key is not the named one', async () => {
  await createSchema(h, { mixed: 'title:string' });
  expect(ids(await create('mixed', [{ title: 'generated' }, { id: 1, title: 'named' }]).expect(200))).toEqual([2, 1]);
});

it('a nested list naming a key after a child without one: the generated key is not the named one', async () => {
  const r = await create('shelves', { name: 'mixed', books: [{ title: 'generated' }, { id: 1, title: 'named' }] }).expect(200);
  const { rows } = await h.pool.query('SELECT id, title FROM content.books WHERE shelf = $1 ORDER BY title', [r.body.data.id]);
  expect(rows).toEqual([
    { id: 2, title: 'generated' },
    { id: 1, title: 'named' },
  ]);
});

it('a nested create with keys of its own moves each collection’s sequence', async () => {
  const r = await create('shelves', { id: 50, name: 'top', books: [{ id: 70, title: 'one' }, { title: 'two' }] }).expect(200);
  expect(r.body.data.id).toBe(50);
  expect(ids(await create('shelves', { name: 'next' }).expect(200))).toEqual([51]);
  expect(ids(await create('books', { title: 'next' }).expect(200))).toEqual([72]);
});

it('concurrent creates with keys of their own never move the sequence back', async () => {
  const keys = [100, 140, 120, 180, 160, 110];
  await Promise.all(keys.map((id) => create('imports', { id, title: `k${id}` }).expect(200)));
  const next = await Promise.all(Array.from({ length: 4 }, () => create('imports', { title: 'generated' }).expect(200)));
  expect(next.flatMap(ids).sort()).toEqual([181, 182, 183, 184]);
});
