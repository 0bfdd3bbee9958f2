import request from 'supertest';
import { Client } from 'pg';
import { errorCode } from '@vellum/testing';
import { harness, type Harness } from './helpers';

// Issue 40.1 (API half): GET /items/:c/:id sends the item's version as ETag; PATCH and DELETE honour If-Match in
// the write's own statement (412, nothing written); a PATCH that changes nothing writes and emits nothing.
let h: Harness;
const auth = () => ({ Authorization: `Bearer ${h.admin}` });

beforeAll(async () => {
  h = await harness();
  await request(h.app)
    .post('/collections')
    .set(auth())
    .send({
      collection: 'notes',
      fields: [
        { field: 'title', type: 'string' },
        { field: 'body', type: 'text' },
      ],
    })
    .expect(200);
});
afterAll(() => h.close());

const create = async (data: object) => (await request(h.app).post('/items/notes').set(auth()).send(data).expect(200)).body.data.id as number;
const read = (id: number) => request(h.app).get(`/items/notes/${id}`).set(auth()).expect(200);
const outboxCount = async () => (await h.outbox()).length;

describe('ETag and If-Match', () => {
  it('GET sends the version; PATCH with it writes and answers the next one; a stale one is 412 and writes nothing', async () => {
    const id = await create({ title: 'a', body: 'x' });
    const first = await read(id);
    expect(first.headers.etag).toBe('"1"');
    // the key as stored, whatever the URL's spelling: what GET /revisions waits for with X-Vellum-Min-Version
    expect((await request(h.app).get(`/items/notes/00${id}`).set(auth()).expect(200)).headers['x-vellum-version']).toBe(`notes/${id}@1`);
    const ok = await request(h.app).patch(`/items/notes/${id}`).set(auth()).set('If-Match', first.headers.etag!).send({ title: 'b' }).expect(200);
    expect(ok.headers.etag).toBe('"2"');
    expect(ok.body.data).toMatchObject({ id, title: 'b', body: 'x' });
    expect((await read(id)).headers.etag).toBe('"2"');

    const events = await outboxCount();
    const stale = await request(h.app).patch(`/items/notes/${id}`).set(auth()).set('If-Match', '"1"').send({ body: 'lost update' }).expect(412);
    expect(errorCode(stale)).toBe('PRECONDITION_FAILED');
    expect(stale.body.errors[0].message).toEqual(expect.any(String));
    expect((await read(id)).body.data).toMatchObject({ title: 'b', body: 'x' });
    expect((await read(id)).headers.etag).toBe('"2"');
    expect(await outboxCount()).toBe(events);
    // a weak tag never matches; `*` only asks that the item exists
    await request(h.app).patch(`/items/notes/${id}`).set(auth()).set('If-Match', 'W/"2"').send({ body: 'y' }).expect(412);
    await request(h.app).patch(`/items/notes/${id}`).set(auth()).set('If-Match', '*').send({ body: 'y' }).expect(200);
  });

  it('DELETE with a stale If-Match is 412 and keeps the item; with the current one it deletes', async () => {
    const id = await create({ title: 'd' });
    await request(h.app).patch(`/items/notes/${id}`).set(auth()).send({ title: 'e' }).expect(200);
    const events = await outboxCount();
    const stale = await request(h.app).delete(`/items/notes/${id}`).set(auth()).set('If-Match', '"1"').expect(412);
    expect(errorCode(stale)).toBe('PRECONDITION_FAILED');
    expect((await read(id)).body.data.title).toBe('e');
    expect(await outboxCount()).toBe(events);
    const deleted = await request(h.app).delete(`/items/notes/${id}`).set(auth()).set('If-Match', '"2"').expect(204);
    expect(deleted.headers['x-vellum-version']).toBe(`notes/${id}@3`); // the delete's revision, for X-Vellum-Min-Version
    await request(h.app).get(`/items/notes/${id}`).set(auth()).expect(403);
  });

  it('a write of several items with If-Match is 412 and writes nothing (a list has no version); If-Match: * passes', async () => {
    const a = await create({ title: 'list a' });
    const b = await create({ title: 'list b' });
    const events = await outboxCount();
    const writes = [
      () =>
        request(h.app)
          .patch('/items/notes')
          .send({ keys: [a, b], data: { title: 'x' } }),
      () =>
        request(h.app)
          .patch('/items/notes')
          .send([{ id: a, title: 'y' }]),
      () => request(h.app).delete('/items/notes').send([a, b]),
    ];
    for (const write of writes) {
      const r = await write().set(auth()).set('If-Match', '"1"'); // each item is at version 1: it was ignored before
      expect([r.status, errorCode(r), r.body.errors[0].message]).toEqual([412, 'PRECONDITION_FAILED', expect.stringContaining('list of items has no version')]);
    }
    expect(await outboxCount()).toBe(events);
    expect((await read(a)).body.data.title).toBe('list a');
    await writes[0]!().set(auth()).set('If-Match', '*').expect(200);
  });

  it('two concurrent PATCHes with the same If-Match: exactly one 200, one 412', async () => {
    const id = await create({ title: 'c0', body: 'b0' });
    const lock = new Client({ connectionString: h.db.url });
    await lock.connect();
    try {
      for (let round = 0; round < 3; round++) {
        const etag = (await read(id)).headers.etag!;
        // hold the row so both writers are inside their statements, waiting on it, before either can commit
        await lock.query('BEGIN');
        await lock.query('SELECT 1 FROM content.notes WHERE id = $1 FOR UPDATE', [id]);
        const writes = [
          request(h.app)
            .patch(`/items/notes/${id}`)
            .set(auth())
            .set('If-Match', etag)
            .send({ title: `A${round}` }),
          request(h.app)
            .patch(`/items/notes/${id}`)
            .set(auth())
            .set('If-Match', etag)
            .send({ body: `B${round}` }),
        ].map((r) => r.then((x) => x));
        await waitFor(async () => {
          await lock.query('SELECT pg_stat_clear_snapshot()'); // the activity view is kept for a transaction otherwise
          const waiting = await lock.query(`SELECT count(*) n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()`);
          return Number(waiting.rows[0].n) >= 2;
        });
        await lock.query('COMMIT');
        const statuses = (await Promise.all(writes)).map((r) => r.status).sort();
        expect(statuses).toEqual([200, 412]);
      }
      // the item went through exactly one write per round
      expect((await read(id)).headers.etag).toBe('"4"');
    } finally {
      await lock.end();
    }
  });
});

describe('a PATCH whose values are the stored ones', () => {
  it('writes nothing, records no event, keeps the version and answers 200 with the item', async () => {
    const id = await create({ title: 'same', body: 'same body' });
    const events = await outboxCount();
    const xmin = async () => (await h.pool.query('SELECT xmin::text FROM content.notes WHERE id = $1', [id])).rows[0].xmin;
    const before = await xmin();
    const r = await request(h.app).patch(`/items/notes/${id}`).set(auth()).set('If-Match', '"1"').send({ title: 'same', body: 'same body' }).expect(200);
    expect(r.body.data).toEqual({ id, title: 'same', body: 'same body' });
    expect(r.headers.etag).toBe('"1"');
    expect(await xmin()).toBe(before); // the row was not written
    expect(await outboxCount()).toBe(events);
    // still checked against If-Match
    await request(h.app).patch(`/items/notes/${id}`).set(auth()).set('If-Match', '"7"').send({ title: 'same' }).expect(412);
    // one field changed among equal ones: written, one event
    await request(h.app).patch(`/items/notes/${id}`).set(auth()).send({ title: 'same', body: 'other' }).expect(200);
    expect(await outboxCount()).toBe(events + 1);
  });
});

async function waitFor(cond: () => Promise<boolean>, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
}
