import request from 'supertest';
import { Client } from 'pg';
import { harness, type Harness } from './helpers';
import { createSchema } from './schema-fixtures';

// A nested write locks the rows it updates as an UPDATE that keeps their key does (FOR NO KEY UPDATE), not FOR
// UPDATE: the stronger lock also waits for the FOR KEY SHARE that PostgreSQL's foreign-key check takes on a parent
// while a child referencing it is written, so a note written under a thing and the thing written with its notes
// met in deadlocks (500s, or seconds of waiting once retried: deploy/local nested-write-deadlocks.e2e.test.ts).
let h: Harness;
let other: Client;
const bearer = () => ({ Authorization: `Bearer ${h.admin}` });

beforeAll(async () => {
  h = await harness();
  other = new Client({ connectionString: h.db.url });
  await other.connect();
  await createSchema(h, { things: 'title:string', notes: 'text:string,thing:integer' }, [
    { collection: 'notes', field: 'thing', related_collection: 'things', meta: { one_field: 'notes' } },
  ]);
  await request(h.app)
    .post('/items/things')
    .set(bearer())
    .send([{ title: 't', notes: [{ text: 'a' }] }, { title: 's' }])
    .expect(200);
});
afterAll(async () => {
  await other.end();
  await h.close();
});

/** `write`'s status, or 'waited' when it did not answer within 3 s while another transaction holds thing 1 FOR KEY SHARE (as a child's foreign-key check does). */
async function whileKeyShared(write: () => request.Test): Promise<number | 'waited'> {
  await other.query('BEGIN');
  await other.query('SELECT 1 FROM content.things WHERE id = 1 FOR KEY SHARE');
  const pending = write().then((r) => r.status);
  try {
    return await Promise.race([pending, new Promise<'waited'>((resolve) => setTimeout(() => resolve('waited'), 3000))]);
  } finally {
    await other.query('ROLLBACK');
    await pending;
  }
}

it.each([
  [
    'a note written with its thing (many-to-one object)',
    () =>
      request(h.app)
        .patch('/items/notes/1')
        .set(bearer())
        .send({ text: 'b', thing: { id: 1, title: 'u' } }),
  ],
  [
    'a thing written with its notes, its own columns unchanged',
    () =>
      request(h.app)
        .patch('/items/things/1')
        .set(bearer())
        .send({ title: 'u', notes: { create: [{ text: 'c' }] } }),
  ],
  [
    'a batch of things',
    () =>
      request(h.app)
        .patch('/items/things')
        .set(bearer())
        .send({ keys: [1, 2], data: { title: 'v' } }),
  ],
])('%s does not wait for a foreign-key check on the thing', async (_name, write) => {
  expect(await whileKeyShared(write)).toBe(200);
});
