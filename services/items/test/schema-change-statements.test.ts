import request from 'supertest';
import pg from 'pg';
import { harness, type Harness } from './helpers';
import { createSchema } from './schema-fixtures';

// A schema change reads the collection's definition inside its transaction. Prisma sent an `include`'s queries at
// once, and on the transaction's one connection pg queued them: deprecated (pg 9 refuses it), and pg 8 printed a
// DeprecationWarning at a server's first field or relation change. Every statement now waits for the one before.
let h: Harness;
const queued: string[] = [];
const proto = pg.Client.prototype as unknown as { query: (...a: unknown[]) => unknown };
const query = proto.query;

beforeAll(async () => {
  h = await harness();
  await createSchema(h, { shelves: 'name:string', books: 'title:string,shelf:integer' });
  proto.query = function (this: { _queryQueue?: unknown[]; pipeline?: boolean }, ...args: unknown[]) {
    const c = args[0] as string | { text?: string };
    if ((this._queryQueue?.length ?? 0) > 0 && !this.pipeline) queued.push(String(typeof c === 'string' ? c : c?.text).slice(0, 80));
    return query.apply(this, args);
  };
});
afterAll(async () => {
  proto.query = query;
  await h.close();
});

it('adding a field and a relation sends no statement while another is running on the same connection', async () => {
  const admin = { Authorization: `Bearer ${h.admin}` };
  await request(h.app).post('/fields/books').set(admin).send({ field: 'isbn', type: 'string' }).expect(200);
  await request(h.app)
    .post('/relations')
    .set(admin)
    .send({ collection: 'books', field: 'shelf', related_collection: 'shelves', meta: { one_field: 'books' } })
    .expect(200);
  await request(h.app).delete('/fields/books/isbn').set(admin).expect(204);
  expect(queued).toEqual([]);
});
