import request from 'supertest';
import { ITEMS_SUBJECTS, itemChangeEventSchema, type ItemChangeEvent } from '@vellum/contracts';
import { harness, type Harness } from './helpers';

let h: Harness;
const bearer = (t: string) => ({ Authorization: `Bearer ${t}` });
let user: string;
let token: string;

beforeAll(async () => {
  h = await harness();
  await request(h.app)
    .post('/collections')
    .set(bearer(h.admin))
    .send({
      collection: 'articles',
      fields: [
        { field: 'title', type: 'string' },
        { field: 'body', type: 'text' },
        { field: 'n', type: 'integer' },
      ],
    });
  await h.grant('editor', { articles: { create: ['*'], read: ['*'], update: ['*'], delete: ['*'] } });
  user = 'c0ffee00-0000-4000-8000-000000000001';
  token = h.tokenFor('editor', user);
});
afterAll(() => h.close());

/** Events committed since `from` (outbox rows), parsed with the contract's schema. */
async function eventsSince(from: number): Promise<{ subject: string; event: ItemChangeEvent }[]> {
  const rows = (await h.outbox()).slice(from);
  return rows.map((r) => ({ subject: r.subject, event: itemChangeEventSchema.parse(r.payload) }));
}

describe('every write commits exactly one item-change event per item, in the same transaction', () => {
  it('create → one event with the full item, the sent fields as delta and the actor', async () => {
    const from = (await h.outbox()).length;
    const r = await request(h.app)
      .post('/items/articles')
      .set(bearer(token))
      .set('User-Agent', 'jest-agent/1.0')
      .set('Origin', 'https://app.example')
      .set('X-Forwarded-For', '203.0.113.9')
      .send({ title: 'One' });
    const id = r.body.data.id;
    const ev = await eventsSince(from);
    expect(ev).toHaveLength(1);
    expect(ev[0]!.subject).toBe('items.articles.create');
    expect(ev[0]!.event).toMatchObject({
      v: 1,
      collection: 'articles',
      item: String(id),
      action: 'create',
      data: { id, title: 'One', body: null, n: null },
      delta: { title: 'One' },
      actor: { user, role: 'editor', user_agent: 'jest-agent/1.0', origin: 'https://app.example' },
    });
    expect(ev[0]!.event.actor.ip).toBeTruthy();
    // the outbox row id is the event id (the dedupe key end to end)
    expect((await h.outbox())[from]!.id).toBe(ev[0]!.event.id);
  });

  it('update → full state after the change and delta = the changed fields; bulk → one event per item', async () => {
    const created = await request(h.app)
      .post('/items/articles')
      .set(bearer(token))
      .send([
        { title: 'A', n: 1 },
        { title: 'B', n: 2 },
      ]);
    const [a, b] = created.body.data.map((i: { id: number }) => i.id);
    let from = (await h.outbox()).length;
    await request(h.app).patch(`/items/articles/${a}`).set(bearer(token)).send({ body: 'text' });
    let ev = await eventsSince(from);
    expect(ev.map((e) => [e.subject, e.event.data, e.event.delta])).toEqual([
      ['items.articles.update', { id: a, title: 'A', body: 'text', n: 1 }, { body: 'text' }],
    ]);
    from = (await h.outbox()).length;
    await request(h.app)
      .patch('/items/articles')
      .set(bearer(token))
      .send({ keys: [a, b], data: { n: 10 } });
    ev = await eventsSince(from);
    expect(ev.map((e) => [e.event.item, e.event.action, e.event.delta, e.event.data?.title])).toEqual([
      [String(a), 'update', { n: 10 }, 'A'],
      [String(b), 'update', { n: 10 }, 'B'],
    ]);
  });

  it('delete → data null and delta null; bulk delete → one event per item', async () => {
    const created = await request(h.app)
      .post('/items/articles')
      .set(bearer(token))
      .send([{ title: 'X' }, { title: 'Y' }, { title: 'Z' }]);
    const [x, y, z] = created.body.data.map((i: { id: number }) => i.id);
    const from = (await h.outbox()).length;
    await request(h.app).delete(`/items/articles/${x}`).set(bearer(token));
    await request(h.app).delete('/items/articles').set(bearer(token)).send([y, z]);
    const ev = await eventsSince(from);
    expect(ev.map((e) => [e.subject, e.event.item, e.event.data, e.event.delta])).toEqual([
      ['items.articles.delete', String(x), null, null],
      ['items.articles.delete', String(y), null, null],
      ['items.articles.delete', String(z), null, null],
    ]);
  });

  it('a write that fails (validation, permission, missing item) commits no event and no change', async () => {
    const from = (await h.outbox()).length;
    await request(h.app)
      .post('/items/articles')
      .set(bearer(token))
      .send([{ title: 'fine' }, { title: 1 }]);
    await request(h.app).post('/items/articles').set(bearer(token)).send({ nope: 1 });
    await request(h.app).patch('/items/articles/999999').set(bearer(token)).send({ title: 'x' });
    await request(h.app).delete('/items/articles').set(bearer(token)).send([999998]);
    await request(h.app).post('/items/articles').send({ title: 'anonymous' });
    expect(await eventsSince(from)).toEqual([]);
    const fine = await request(h.app).get('/items/articles?filter[title][_eq]=fine').set(bearer(token));
    expect(fine.body.data).toEqual([]);
  });

  it('the event and the item commit together: a failure after the insert rolls both back', async () => {
    // Make the outbox insert fail inside the transaction: the item must not stay either.
    await h.pool.query(`ALTER TABLE "outbox" ADD CONSTRAINT "no_more" CHECK ("subject" <> 'items.articles.create') NOT VALID`);
    try {
      const r = await request(h.app).post('/items/articles').set(bearer(token)).send({ title: 'orphan' });
      expect(r.status).toBe(500);
    } finally {
      await h.pool.query(`ALTER TABLE "outbox" DROP CONSTRAINT "no_more"`);
    }
    const orphan = await request(h.app).get('/items/articles?filter[title][_eq]=orphan').set(bearer(token));
    expect(orphan.body.data).toEqual([]);
  });

  it('every event carries its item version: 1, 2, 3, … per item in commit order, continuing after a failed write', async () => {
    const created = await request(h.app)
      .post('/items/articles')
      .set(bearer(token))
      .send([{ title: 'V1' }, { title: 'V2' }]);
    const [a, b] = created.body.data.map((i: { id: number }) => i.id);
    await request(h.app).patch(`/items/articles/${a}`).set(bearer(token)).send({ n: 1 }).expect(200);
    await request(h.app)
      .patch('/items/articles')
      .set(bearer(token))
      .send({ keys: [a, b], data: { n: 2 } })
      .expect(200);
    await request(h.app).patch(`/items/articles/${a}`).set(bearer(token)).send({ title: 1 }).expect(400); // no version used
    // one write changing the same item twice: two versions, in the order of the payload
    await request(h.app)
      .patch('/items/articles')
      .set(bearer(token))
      .send([
        { id: b, n: 3 },
        { id: b, n: 4 },
      ])
      .expect(200);
    await request(h.app).delete(`/items/articles/${a}`).set(bearer(token)).expect(204);
    const mine = (await eventsSince(0)).filter((e) => [String(a), String(b)].includes(e.event.item));
    expect(mine.map((e) => [e.event.item, e.event.action, e.event.item_version, e.event.delta])).toEqual([
      [String(a), 'create', 1, { title: 'V1' }],
      [String(b), 'create', 1, { title: 'V2' }],
      [String(a), 'update', 2, { n: 1 }],
      [String(a), 'update', 3, { n: 2 }],
      [String(b), 'update', 2, { n: 2 }],
      [String(b), 'update', 3, { n: 3 }],
      [String(b), 'update', 4, { n: 4 }],
      [String(a), 'delete', 4, null],
    ]);
  });

  it('events match the ITEMS stream subjects', () => {
    expect(ITEMS_SUBJECTS).toEqual(['items.>']);
  });
});
