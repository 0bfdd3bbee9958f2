import request from 'supertest';
import { Client } from 'pg';
import { untilLockWaiters } from '@vellum/testing';
import { harness, type Harness } from './helpers';
import { createSchema } from './schema-fixtures';

// A write of several items locks their rows in key order, whatever the order of the request or of the rows on disk.
// Otherwise two batches over the same items can each hold a row the other waits for: PostgreSQL breaks the
// deadlock after a second by aborting one (40P01, a 500 to its client). Each test holds item 1 from outside, starts
// a write of items 1 and 2 (stored 2 first: a scan meets 2 before 1; named 2 first), and checks the write has not
// taken item 2 while it waits for item 1. The same for the children a nested write updates or links.
let h: Harness;
let other: Client;
const auth = () => ({ Authorization: `Bearer ${h.admin}` });

beforeAll(async () => {
  h = await harness();
  other = new Client({ connectionString: h.db.url });
  await other.connect();
  await request(h.app)
    .post('/collections')
    .set(auth())
    .send({ collection: 'tallies', fields: [{ field: 'n', type: 'integer' }] })
    .expect(200);
  await createSchema(h, { boards: 'name:string', cards: 'text:string,board:integer' }, [
    { collection: 'cards', field: 'board', related_collection: 'boards', meta: { one_field: 'cards' } },
  ]);
});
afterAll(async () => {
  await other.end();
  await h.close();
});

/** Items `ids` stored in this order (the table emptied first). */
async function seed(ids: number[]) {
  await h.pool.query('DELETE FROM content.tallies');
  await request(h.app)
    .post('/items/tallies')
    .set(auth())
    .send(ids.map((id) => ({ id, n: 0 })))
    .expect(200);
}

/** Holds row 1 of `table`, runs `write`, takes row 2 without waiting while the write waits, then lets the write finish. */
async function lockOrderOf(write: () => request.Test, table = 'tallies'): Promise<request.Response> {
  if (table === 'tallies') await seed([2, 1, 3]);
  await other.query('BEGIN');
  await other.query(`SELECT 1 FROM content.${table} WHERE id = 1 FOR UPDATE`);
  const pending = write().then((r) => r);
  try {
    await untilLockWaiters((t) => h.pool.query(t));
    // NOWAIT fails at once (55P03) if the write took item 2 before waiting for item 1
    await other.query(`SELECT 1 FROM content.${table} WHERE id = 2 FOR UPDATE NOWAIT`);
  } finally {
    await other.query('ROLLBACK');
  }
  return pending;
}

it('PATCH {keys, data} locks its rows in key order', async () => {
  const r = await lockOrderOf(() =>
    request(h.app)
      .patch('/items/tallies')
      .set(auth())
      .send({ keys: [2, 1], data: { n: 5 } }),
  );
  expect(r.status).toBe(200);
  const { body } = await request(h.app).get('/items/tallies?sort=id').set(auth()).expect(200);
  expect(body.data.map((i: { n: number }) => i.n)).toEqual([5, 5, 0]);
});

it('PATCH with a list of different changes locks its rows in key order before the first change', async () => {
  const r = await lockOrderOf(() =>
    request(h.app)
      .patch('/items/tallies')
      .set(auth())
      .send([
        { id: 2, n: 20 },
        { id: 1, n: 10 },
      ]),
  );
  expect(r.status).toBe(200);
  const { body } = await request(h.app).get('/items/tallies?sort=id').set(auth()).expect(200);
  expect(body.data.map((i: { n: number }) => i.n)).toEqual([10, 20, 0]);
});

it('DELETE of several keys locks its rows in key order', async () => {
  const r = await lockOrderOf(() => request(h.app).delete('/items/tallies').set(auth()).send([2, 1]));
  expect(r.status).toBe(204);
  const { body } = await request(h.app).get('/items/tallies').set(auth()).expect(200);
  expect(body.data.map((i: { id: number }) => i.id)).toEqual([3]);
});

describe('nested writes', () => {
  /** Boards 1 and 2; cards 1 and 2 on board 2. */
  beforeEach(async () => {
    await h.pool.query('DELETE FROM content.cards');
    await h.pool.query('DELETE FROM content.boards');
    await h.pool.query(`INSERT INTO content.boards (id, name) VALUES (1, 'one'), (2, 'two')`);
    await h.pool.query(`INSERT INTO content.cards (id, text, board) VALUES (2, 'b', 2), (1, 'a', 2)`);
  });

  it('children updated through {update: [...]} are locked in key order before the first update', async () => {
    const r = await lockOrderOf(
      () =>
        request(h.app)
          .patch('/items/boards/2')
          .set(auth())
          .send({
            cards: {
              update: [
                { id: 2, text: 'B' },
                { id: 1, text: 'A' },
              ],
            },
          }),
      'cards',
    );
    expect(r.status).toBe(200);
    const { rows } = await h.pool.query('SELECT id, text FROM content.cards ORDER BY id');
    expect(rows).toEqual([
      { id: 1, text: 'A' },
      { id: 2, text: 'B' },
    ]);
  });

  it('children linked from another parent by a list are locked in key order with the current ones', async () => {
    const r = await lockOrderOf(
      () =>
        request(h.app)
          .patch('/items/boards/1')
          .set(auth())
          .send({ cards: [2, 1] }),
      'cards',
    );
    expect(r.status).toBe(200);
    const { rows } = await h.pool.query('SELECT id, board FROM content.cards ORDER BY id');
    expect(rows).toEqual([
      { id: 1, board: 1 },
      { id: 2, board: 1 },
    ]);
  });
});
