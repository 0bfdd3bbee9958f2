import request from 'supertest';
import type { PoolClient } from 'pg';
import { itemChangeEventSchema, type ItemChangeEvent } from '@vellum/contracts';
import { harness, type Harness } from './helpers';

// One-item writes (no If-Match, not nested) to a collection of JSON-safe types are one statement on their own:
// the row, its version and its event. The event PostgreSQL builds must be the one the general path builds.

const bearer = (t: string) => ({ Authorization: `Bearer ${t}` });
let h: Harness;
let quiet: Harness;

/** Statements the harness's items pool sends while `fn` runs (a spy on its real connections). */
let recording: string[] | undefined;
const spied = new WeakSet<PoolClient>();
function spy(client: PoolClient): void {
  if (spied.has(client)) return;
  spied.add(client);
  const query = client.query.bind(client) as (...a: unknown[]) => unknown;
  (client as unknown as { query: unknown }).query = (...a: unknown[]) => {
    const q = a[0];
    recording?.push(typeof q === 'string' ? q : (q as { text: string }).text);
    return query(...a);
  };
}
async function statements(on: Harness, fn: () => Promise<unknown>): Promise<string[]> {
  const sent: string[] = (recording = []);
  on.pool.on('acquire', spy);
  try {
    await fn();
  } finally {
    on.pool.off('acquire', spy);
    recording = undefined;
  }
  return sent;
}

const everySafeType = (collection: string) => ({
  collection,
  fields: [
    { field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true } },
    { field: 'title', type: 'string' },
    { field: 'body', type: 'text' },
    { field: 'n', type: 'integer' },
    { field: 'flag', type: 'boolean' },
    { field: 'ref', type: 'uuid' },
    { field: 'extra', type: 'json' },
  ],
});

async function eventsSince(on: Harness, from: number): Promise<ItemChangeEvent[]> {
  return (await on.outbox()).slice(from).map((r) => itemChangeEventSchema.parse(r.payload));
}

beforeAll(async () => {
  [h, quiet] = await Promise.all([harness(), harness({ relay: false })]);
  for (const on of [h, quiet]) {
    for (const c of [everySafeType('safe'), everyType]) {
      expect((await request(on.app).post('/collections').set(bearer(on.admin)).send(c)).status).toBe(200);
    }
  }
});
afterAll(() => Promise.all([h?.close(), quiet?.close()]));

/** Every field type, with values whose JSON is easy to get wrong. */
const everyType = {
  collection: 'every',
  fields: [
    { field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true } },
    { field: 'title', type: 'string' },
    { field: 'body', type: 'text' },
    { field: 'views', type: 'integer' },
    { field: 'rating', type: 'float' },
    { field: 'price', type: 'decimal', schema: { numeric_precision: 10, numeric_scale: 2 } },
    { field: 'big', type: 'bigInteger' },
    { field: 'published', type: 'boolean' },
    { field: 'ref', type: 'uuid' },
    { field: 'extra', type: 'json' },
    { field: 'day', type: 'date' },
    { field: 'local_time', type: 'dateTime' },
    { field: 'at', type: 'timestamp' },
  ],
};
const oddValues = {
  title: 'é "q" \\ \u2028 😀',
  body: null,
  views: -2147483648,
  rating: 0.1,
  price: '12.5',
  big: '9007199254740993',
  published: false,
  ref: '8f14e45f-ceea-467a-9f6e-1c6a1d1b5e2a',
  extra: { a: [1, 2.5, 'x', null], n: -0, s: 'tab\there' },
  day: '2024-02-29',
  local_time: '2024-02-29T23:59:59.5',
  at: '2024-02-29T23:59:59.123+05:30',
};

const odd = {
  title: 'é "q" \\ \u2028 😀',
  body: 'line\nnext\t<b>',
  n: -7,
  flag: true,
  ref: '8f14e45f-ceea-467a-9f6e-1c6a1d1b5e2a',
  extra: { a: [1, 'x', null, { b: false }], 'k"': 2.5 },
};

describe('a one-item write in one statement', () => {
  it('POST and PATCH send one statement each, and its event is the item as answered', async () => {
    let id = 0;
    let answered: Record<string, unknown> = {};
    const from = (await h.outbox()).length;
    const posted = await statements(h, async () => {
      const r = await request(h.app).post('/items/safe').set(bearer(h.admin)).send(odd);
      expect(r.status).toBe(200);
      id = r.body.data.id;
    });
    const patched = await statements(h, async () => {
      const r = await request(h.app).patch(`/items/safe/${id}`).set(bearer(h.admin)).send({ n: 8, extra: null, flag: false });
      expect(r.status).toBe(200);
      answered = r.body.data;
      expect(r.headers.etag).toBe(`"2"`);
    });
    // the write's own statement only: no BEGIN / COMMIT, no outbox INSERT of its own
    expect(posted.filter((t) => !/^SELECT/.test(t))).toHaveLength(1);
    expect(patched.filter((t) => !/^SELECT/.test(t))).toHaveLength(1);
    expect([...posted, ...patched].some((t) => /^(BEGIN|COMMIT)/.test(t))).toBe(false);

    const [created, updated] = await eventsSince(h, from);
    expect(created).toMatchObject({ action: 'create', item: String(id), data: { ...odd, id }, delta: odd, item_version: 1 });
    expect(updated).toMatchObject({ action: 'update', item: String(id), delta: { n: 8, extra: null, flag: false }, item_version: 2 });
    expect(updated!.data).toEqual(answered);
  });

  it('its event is the general path’s, for every field type and odd values', async () => {
    const from = (await h.outbox()).length;
    const one = await request(h.app).post('/items/every').set(bearer(h.admin)).send(oddValues);
    // an array is written by the general path (a transaction)
    const general = await request(h.app).post('/items/every').set(bearer(h.admin)).send([oddValues]);
    expect([one.status, general.status, one.body.errors]).toEqual([200, 200, undefined]);
    const change = { title: 'T', ref: null, big: '-9007199254740993', price: '0.10', at: '1999-12-31T23:59:59.999Z', rating: 1e21 };
    await request(h.app).patch(`/items/every/${one.body.data.id}`).set(bearer(h.admin)).send(change);
    // If-Match sends a PATCH through the general path
    await request(h.app).patch(`/items/every/${general.body.data[0].id}`).set(bearer(h.admin)).set('If-Match', '"1"').send(change);
    const [c1, c2, u1, u2] = await eventsSince(h, from);
    const comparable = (e: ItemChangeEvent) => {
      const { id: _id, timestamp: _t, item: _i, data, ...rest } = e;
      return { ...rest, data: { ...data, id: undefined } };
    };
    expect(comparable(c1!)).toEqual(comparable(c2!));
    expect(comparable(u1!)).toEqual(comparable(u2!));
    expect(u1!.data).toMatchObject({ big: '-9007199254740993', price: '0.10', at: '1999-12-31T23:59:59.999Z', rating: 1e21, day: '2024-02-29' });
  });

  it('several items, or a connection without this process’s relay, take the transaction', async () => {
    const several = await statements(h, () =>
      request(h.app)
        .post('/items/safe')
        .set(bearer(h.admin))
        .send([{ title: 'm' }]),
    );
    expect(several.some((t) => t === 'BEGIN')).toBe(true);
    const noRelay = await statements(quiet, () => request(quiet.app).post('/items/safe').set(bearer(quiet.admin)).send({ title: 'q' }));
    expect(noRelay.some((t) => t === 'BEGIN')).toBe(true);
    // there the relays elsewhere are woken by a NOTIFY in the transaction
    expect(noRelay.some((t) => t.includes('pg_notify'))).toBe(true);
  });

  it('values already stored: 200 as stored, no event; a missing item: 403; a bad value: 400 — nothing written', async () => {
    const r = await request(h.app).post('/items/safe').set(bearer(h.admin)).send({ title: 'same', n: 1 });
    const id = r.body.data.id;
    const from = (await h.outbox()).length;
    const same = await request(h.app).patch(`/items/safe/${id}`).set(bearer(h.admin)).send({ title: 'same' });
    expect([same.status, same.body.data.title, same.headers.etag]).toEqual([200, 'same', `"1"`]);
    expect((await request(h.app).patch('/items/safe/999999').set(bearer(h.admin)).send({ title: 'x' })).status).toBe(403);
    expect((await request(h.app).patch(`/items/safe/${id}`).set(bearer(h.admin)).send({ n: 'nine' })).status).toBe(400);
    expect((await request(h.app).post('/items/safe').set(bearer(h.admin)).send({ id, title: 'dup' })).status).toBe(400);
    expect(await eventsSince(h, from)).toEqual([]);
    const now = await request(h.app).get(`/items/safe/${id}`).set(bearer(h.admin));
    expect([now.body.data.title, now.body.data.n]).toEqual(['same', 1]);
  });
});
