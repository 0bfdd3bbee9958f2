import { Client } from 'pg';
import { ITEMS_STREAM, ITEMS_SUBJECTS, itemChangeSubject, type ItemChangeEvent } from '@vellum/contracts';
import { connectNatsMessaging, createInProcessMessaging, type Messaging, type Subscription } from '@vellum/messaging';
import { createTestDatabase, testNatsUrl, uniqueId, type TestDatabase } from '@vellum/testing';
import { EventWriter } from '../src/data/event.writer';
import { createPool } from '../src/data/pool';
import { startItemEventsConsumer } from '../src/events/item-events.consumer';
import { MIGRATIONS_DIR } from '../src/start';

// Issue 23.2 at the consumer: an item's revisions are recorded in `item_version` order (the commit order of its
// writes), whatever order the events arrive in, with two consumers sharing the group and redeliveries (a change
// that comes early is parked until its predecessor is recorded); a change whose predecessor never comes is
// recorded after the bounded wait, and the predecessor, if it comes later, still finds its place.

type Json = Record<string, unknown>;
const ITEMS = 4;
const VERSIONS = 25;

/** Versioned changes of ITEMS items. Event times run backwards (so time order is the wrong order); every third
 *  update leaves `delta` to the consumer. */
function history(run: string) {
  const events: ItemChangeEvent[] = [];
  const base = Date.parse('2026-01-01T00:00:00Z');
  for (let i = 0; i < ITEMS; i++) {
    for (let v = 1; v <= VERSIONS; v++) {
      const data = { id: i, n: v, half: Math.floor(v / 2), item: i };
      const delta = v === 1 ? data : v % 2 ? { n: v } : { n: v, half: v / 2 };
      events.push({
        v: 1,
        id: `${run}-${i}-${v}`,
        collection: 'c',
        item: String(i),
        action: v === 1 ? 'create' : 'update',
        data,
        delta: v > 1 && v % 3 === 0 ? undefined : delta,
        actor: { user: null },
        timestamp: new Date(base - v * 1000).toISOString(),
        item_version: v,
      });
    }
  }
  return events;
}

function shuffle<T>(a: T[], seed: number): T[] {
  let s = seed >>> 0;
  const out = [...a];
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1664525 + 1013904223) >>> 0;
    const j = Math.floor((s / 2 ** 32) * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

async function waitFor(check: () => Promise<boolean>, timeoutMs: number, what: string) {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function suite(name: string, connect: () => Promise<Messaging>) {
  describe(name, () => {
    let db: TestDatabase;
    let sql: Client;
    let messaging: Messaging;
    const pools: ReturnType<typeof createPool>[] = [];
    const subs: Subscription[] = [];
    const warnings: Json[] = [];
    const logger = { warn: (o: object) => void warnings.push(o as Json), error: () => undefined, debug: () => undefined };
    beforeAll(async () => {
      db = await createTestDatabase({ migrationsDir: MIGRATIONS_DIR });
      sql = new Client({ connectionString: db.url });
      await sql.connect();
      messaging = await connect();
      // two replicas: own pool, own writer, same durable consumer group
      for (let r = 0; r < 2; r++) {
        const pool = createPool(db.url, 3);
        pools.push(pool);
        subs.push(
          await startItemEventsConsumer({
            messaging,
            writer: new EventWriter(pool),
            logger,
            concurrency: 32,
            backoffMs: [20],
            maxDeliver: 20,
            ackWaitMs: 5000,
            orderWaitMs: 3000,
          }),
        );
      }
    });
    afterAll(async () => {
      for (const s of subs) await s.stop();
      for (const p of pools) await p.end();
      if ('destroy' in messaging) await (messaging as { destroy(): Promise<void> }).destroy().catch(() => undefined);
      await messaging.close();
      await sql.end();
      await db.drop();
    });
    const rowsOf = async (item: string) =>
      (
        await sql.query<{ data: Json; delta: Json; v: number }>(
          `SELECT data, delta, item_version::int AS v FROM revisions WHERE collection = 'c' AND item = $1 ORDER BY id`,
          [item],
        )
      ).rows;

    it('records each item in version order despite shuffled arrival, two consumers and redeliveries', async () => {
      const events = history('a');
      const stream = await messaging.eventStream(ITEMS_STREAM, { subjects: ITEMS_SUBJECTS });
      let again = 0;
      for (const e of shuffle(events, 7)) {
        await stream.publish(itemChangeSubject(e.collection, e.action), e, { id: e.id });
        // a redelivery the broker cannot dedupe (another message id, the same event id)
        if (again++ % 5 === 0) await stream.publish(itemChangeSubject(e.collection, e.action), e, { id: `${e.id}-again` });
      }
      const total = async () => Number((await sql.query(`SELECT count(*)::int AS n FROM revisions`)).rows[0].n);
      await waitFor(async () => (await total()) >= events.length, 60_000, 'every event');
      await new Promise((r) => setTimeout(r, 200)); // would a doubled write still land?
      expect(await total()).toBe(events.length);
      for (let i = 0; i < ITEMS; i++) {
        const rows = await rowsOf(String(i));
        expect(rows.map((r) => r.v)).toEqual(Array.from({ length: VERSIONS }, (_, k) => k + 1));
        let state: Json = {};
        for (const r of rows) {
          state = { ...state, ...r.delta };
          expect(r.data).toEqual(state);
        }
        expect(state).toEqual({ id: i, n: VERSIONS, half: Math.floor(VERSIONS / 2), item: i });
      }
      expect(warnings).toEqual([]);
    }, 90_000);

    it('a change whose predecessor never comes is recorded after the wait; the predecessor, if it comes, takes its place', async () => {
      const [v1, v2, v3] = history('b').slice(0, 3) as [ItemChangeEvent, ItemChangeEvent, ItemChangeEvent];
      const item = (e: ItemChangeEvent) => ({ ...e, item: 'gap' });
      const stream = await messaging.eventStream(ITEMS_STREAM, { subjects: ITEMS_SUBJECTS });
      const publish = (e: ItemChangeEvent) => stream.publish(itemChangeSubject(e.collection, e.action), item(e), { id: e.id });
      await publish(v1);
      await publish(v3); // v3's delta is computed (no delta in the event)
      const parkedAt = Date.now();
      await waitFor(async () => (await rowsOf('gap')).length === 1, 20_000, 'v1 recorded');
      // v3 is parked (its consumer may still be on its way there when v1's row lands; on a slow machine it may even
      // have been parked and released already: then v3's row is there)
      const parked = async () => Number((await sql.query(`SELECT count(*) AS n FROM pending_item_events WHERE item = 'gap'`)).rows[0].n);
      await waitFor(async () => (await parked()) === 1 || (await rowsOf('gap')).length === 2, 20_000, 'v3 parked');
      await waitFor(async () => (await rowsOf('gap')).length === 2, 20_000, 'v3 recorded without v2');
      // parked for orderWaitMs (3 s), then recorded with a warning
      expect(Date.now() - parkedAt).toBeGreaterThanOrEqual(2500);
      // the sweep logs its warning once the release has committed: the row can be seen a moment before it
      await waitFor(async () => warnings.length > 0, 10_000, 'the out-of-order warning');
      expect(warnings).toEqual([expect.objectContaining({ item: 'gap', itemVersion: 3 })]);
      expect(Number((await sql.query(`SELECT count(*) AS n FROM pending_item_events`)).rows[0].n)).toBe(0);
      expect((await rowsOf('gap')).map((r) => [r.v, r.delta])).toEqual([
        [1, v1.delta],
        [3, { n: 3, half: 1 }],
      ]);
      await publish(v2);
      await waitFor(async () => (await rowsOf('gap')).length === 3, 20_000, 'v2 recorded late');
      // v2 is recorded (last by id), and v3's computed delta is now against v2
      expect((await rowsOf('gap')).map((r) => [r.v, r.delta])).toEqual([
        [1, v1.delta],
        [3, { n: 3 }],
        [2, v2.delta],
      ]);
    }, 60_000);
  });
}

suite('item order (in-process messaging)', async () => createInProcessMessaging());

const nats = testNatsUrl();
if (nats) suite('item order (NATS JetStream)', async () => connectNatsMessaging({ servers: nats, name: 'revisions-order-test', prefix: uniqueId('ord') }));
else describe.skip('item order (NATS JetStream)', () => it('needs a NATS server', () => undefined));
