import { Client } from 'pg';
import request from 'supertest';
import { testNatsUrl } from '@vellum/testing';
import { collectionWithId, startTestPlatform, eventually, type TestPlatform } from './platform-harness';

// Issue 23.2: for one item, revision order is the order its writes committed and the newest revision is the
// item as stored — with two revisions replicas sharing the consumer group (in-process messaging as `npm start`
// runs it, and NATS JetStream), under a storm of concurrent PATCHes on a few hot items.
const CLIENTS = 8;
const HOT_ITEMS = 3;
const STORM_MS = Number(process.env.REVISION_ORDER_STORM_MS ?? 4000);

type Json = Record<string, unknown>;
interface RevisionRow {
  id: string;
  item: string;
  data: Json | null;
  delta: Json | null;
  item_version: string | null;
}

const nats = testNatsUrl();
if (!nats) console.warn('!!! revision order on NATS SKIPPED: no NATS_URL / TEST_NATS_URL');

describe.each([
  ['in-process messaging (embedded topology)', false],
  ['NATS JetStream', true],
])('revision order = commit order (%s, two revisions replicas, concurrent writers)', (_name, useNats) => {
  const skip = useNats && !nats;
  let p: TestPlatform;
  let admin: string;
  beforeAll(async () => {
    if (skip) return;
    p = await startTestPlatform({ useNats, local: { REVISIONS_REPLICAS: '2' } });
    admin = (await p.login()).access_token;
  }, 60_000);
  afterAll(() => p?.close());
  const as = () => ({ Authorization: `Bearer ${admin}` });

  it('newest revision = stored row, deltas replayed in order rebuild it, versions contiguous, one revision per acknowledged write', async () => {
    if (skip) return;
    // Writes go straight to the items service (the gateway would only add load); reads of revisions through the gateway.
    const items = request(p.services.items.url);
    const hot = collectionWithId('hot', [
      { field: 'title', type: 'string' },
      { field: 'writer', type: 'integer' },
      { field: 'n', type: 'integer' },
    ]);
    await items.post('/collections').set(as()).send(hot).expect(200);
    const ids: number[] = [];
    for (let i = 0; i < HOT_ITEMS; i++)
      ids.push(
        (
          await items
            .post('/items/hot')
            .set(as())
            .send({ title: `t${i}`, writer: -1, n: 0 })
            .expect(200)
        ).body.data.id,
      );

    // The storm: every client PATCHes a random hot item, as fast as it can; alternately one or two fields so the
    // deltas differ. Only acknowledged (200) writes count.
    const acknowledged = new Map<number, number>(ids.map((id) => [id, 0]));
    const until = Date.now() + STORM_MS;
    let counter = 0;
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, w) => {
        while (Date.now() < until) {
          const id = ids[Math.floor(Math.random() * ids.length)]!;
          const k = ++counter;
          const body = k % 2 ? { title: `w${w}-${k}`, writer: w } : { n: k };
          const r = await items.patch(`/items/hot/${id}`).set(as()).send(body);
          if (r.status === 200) acknowledged.set(id, acknowledged.get(id)! + 1);
        }
      }),
    );
    const writes = [...acknowledged.values()].reduce((a, b) => a + b, 0);
    expect(writes).toBeGreaterThan(CLIENTS * 3);

    const db = new Client({ connectionString: p.databaseUrls.revisions });
    await db.connect();
    try {
      const byItem = await eventually(
        async () => {
          const { rows } = await db.query<RevisionRow>(
            `SELECT id::text, item, data, delta, item_version::text FROM revisions WHERE collection = 'hot' ORDER BY revisions.id`,
          );
          return rows.length >= writes + HOT_ITEMS ? rows : undefined;
        },
        60_000,
        200,
      );
      expect(byItem).toHaveLength(writes + HOT_ITEMS);

      for (const id of ids) {
        const stored = (await items.get(`/items/hot/${id}`).set(as()).expect(200)).body.data as Json;
        const mine = byItem.filter((r) => r.item === String(id));
        // one revision per acknowledged write (plus the create), numbered 1, 2, 3, … in id order
        expect(mine).toHaveLength(acknowledged.get(id)! + 1);
        expect(mine.map((r) => Number(r.item_version))).toEqual(mine.map((_, i) => i + 1));
        // replaying the deltas in id order from the created item rebuilds every revision's data and the stored row
        let state: Json = { ...mine[0]!.data };
        for (const r of mine.slice(1)) {
          state = { ...state, ...r.delta };
          expect(r.data).toEqual(state);
        }
        expect(state).toEqual(stored);
        // what a client sees: the newest revision (sort=-id) is the item as stored
        const newest = await request(p.url)
          .get('/revisions')
          .query({ 'filter[collection][_eq]': 'hot', 'filter[item][_eq]': String(id), sort: '-id', limit: 1, fields: 'data' })
          .set(as())
          .expect(200);
        expect(newest.body.data[0].data).toEqual(stored);
      }
    } finally {
      await db.end();
    }
  }, 120_000);
});
