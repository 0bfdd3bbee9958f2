import { ITEMS_STREAM, ITEMS_SUBJECTS, itemChangeSubject, type ItemChangeEvent } from '@vellum/contracts';
import { connectNatsMessaging, createInProcessMessaging, type Messaging, type Subscription } from '@vellum/messaging';
import { testNatsUrl, uniqueId, useMigratedDatabase } from '@vellum/testing';
import { EventWriter } from '../src/data/event.writer';
import { createPool } from '../src/data/pool';
import { startItemEventsConsumer } from '../src/events/item-events.consumer';
import { MIGRATIONS_DIR } from '../src/start';
import { logger } from './helpers';

/** A deterministic PRNG so a failure can be replayed. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** `items` items × `versions` updates over 10 collections, with the delta each revision must end up with. */
function history(items: number, versions: number) {
  const events: ItemChangeEvent[] = [];
  const expected = new Map<string, { delta: Record<string, unknown> | null; data: Record<string, unknown> | null; parent: string | null }>();
  const base = Date.parse('2026-01-01T00:00:00Z');
  for (let i = 0; i < items; i++) {
    let prev: Record<string, unknown> | null = null;
    for (let v = 0; v < versions; v++) {
      const id = `ev-${i}-${v}`;
      const isDelete = v === versions - 1 && i % 7 === 0;
      const data = isDelete ? null : { id: i, n: v, a: v % 3, b: `x${v % 5}`, fixed: 'f', nested: { k: v % 2 } };
      let delta: Record<string, unknown> | null = null;
      if (data) delta = prev ? Object.fromEntries(Object.entries(data).filter(([k, val]) => JSON.stringify(prev![k]) !== JSON.stringify(val))) : data;
      const parent = v > 0 && i > 0 && v % 5 === 0 ? `ev-${i - 1}-${v}` : null;
      events.push({
        v: 1,
        id,
        collection: `c${i % 10}`,
        item: String(i),
        action: isDelete ? 'delete' : v === 0 ? 'create' : 'update',
        data,
        actor: { user: `u${i % 3}` },
        timestamp: new Date(base + i * 1000 + v * 60_000).toISOString(),
        parent_event: parent,
      });
      expected.set(id, { delta, data, parent });
      prev = data;
    }
  }
  return { events, expected };
}

async function waitFor(check: () => Promise<boolean>, timeoutMs: number, what: string) {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function suite(name: string, connect: () => Promise<Messaging>, items: number, versions: number) {
  describe(name, () => {
    const db = useMigratedDatabase(MIGRATIONS_DIR);
    const count = async (table = 'revisions') => Number((await db.pg.query(`SELECT count(*)::int AS n FROM ${table}`)).rows[0].n);

    it(`records ${items * versions} events exactly once despite duplicates, disorder, a stop and a crash`, async () => {
      const { events, expected } = history(items, versions);
      const random = rng(42);
      const order = [...events];
      for (let i = order.length - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1));
        [order[i], order[j]] = [order[j]!, order[i]!];
      }
      const messaging = await connect();
      const stream = await messaging.eventStream(ITEMS_STREAM, { subjects: ITEMS_SUBJECTS });
      const publishAll = async () => {
        let dup = 0;
        for (const e of order) {
          await stream.publish(itemChangeSubject(e.collection, e.action), e, { id: e.id });
          // a redelivery the broker cannot dedupe (another message id, the same event id)
          if (random() < 0.1) await stream.publish(itemChangeSubject(e.collection, e.action), e, { id: `${e.id}-again-${dup++}` });
        }
        await stream.publish('items.c1.update', { v: 1, id: 'bad-1', collection: 'c1' }, { id: 'bad-1' });
        await stream.publish('items.c1.update', { ...events[0], id: 'bad-2', v: 2 }, { id: 'bad-2' });
      };

      const pool = createPool(db.url, 4);
      pool.on('error', () => undefined); // idle clients killed by the crash below
      const start = () =>
        startItemEventsConsumer({ messaging, writer: new EventWriter(pool), logger, concurrency: 64, backoffMs: [20], maxDeliver: 50, ackWaitMs: 5000 });
      let sub: Subscription = await start();
      const publishing = publishAll();

      // 1. a graceful stop mid-stream, then a restart of the same durable consumer
      await waitFor(async () => (await count()) >= events.length * 0.25, 60_000, 'a quarter');
      await sub.stop();
      const atStop = await count();
      sub = await start();

      // 2. a crash: every database connection of the consumer is killed under it mid-transaction
      await waitFor(async () => (await count()) >= Math.max(atStop + 1, events.length * 0.5), 60_000, 'a half');
      await db.pg.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`);

      await publishing;
      await waitFor(async () => (await count()) >= events.length, 120_000, 'every event');
      await new Promise((r) => setTimeout(r, 300)); // would any doubled write still land?
      await sub.stop();

      expect(await count()).toBe(events.length);
      expect(await count('activity')).toBe(events.length);
      const { rows } = await db.pg.query<{ event_id: string; delta: unknown; data: unknown; parent_event: string | null; parent: string | null; id: string }>(
        `SELECT r.event_id, r.delta, r.data, p.event_id AS parent_event, r.parent FROM revisions r LEFT JOIN revisions p ON p.id = r.parent`,
      );
      let wrong = 0;
      for (const row of rows) {
        const exp = expected.get(row.event_id)!;
        const ok = JSON.stringify(row.delta) === JSON.stringify(exp.delta) || JSON.stringify(sortKeys(row.delta)) === JSON.stringify(sortKeys(exp.delta));
        if (!ok || JSON.stringify(sortKeys(row.data)) !== JSON.stringify(sortKeys(exp.data)) || row.parent_event !== exp.parent) wrong++;
      }
      expect(wrong).toBe(0);
      const counters = await db.pg.query(`SELECT entity, sum(count)::int AS n FROM record_counts GROUP BY entity ORDER BY entity`);
      expect(counters.rows).toEqual([
        { entity: 'activity', n: events.length },
        { entity: 'revisions', n: events.length },
      ]);
      const dead = await stream.deadLetters();
      expect(dead.map((d) => d.id).sort()).toEqual(['bad-1', 'bad-2']);
      expect(dead.find((d) => d.id === 'bad-2')!.reason).toMatch(/malformed item event: v/);
      await pool.end();
      await messaging.close();
    }, 180_000);
  });
}

const sortKeys = (v: unknown): unknown =>
  v && typeof v === 'object' && !Array.isArray(v)
    ? Object.fromEntries(
        Object.entries(v)
          .sort(([a], [b]) => (a < b ? -1 : 1))
          .map(([k, x]) => [k, sortKeys(x)]),
      )
    : v;

suite('recording (in-process messaging)', async () => createInProcessMessaging(), 500, 20);

const nats = testNatsUrl();
if (nats) suite('recording (NATS JetStream)', async () => connectNatsMessaging({ servers: nats, name: 'revisions-test', prefix: uniqueId('rev') }), 100, 20);
else describe.skip('recording (NATS JetStream)', () => it('needs a NATS server', () => undefined));
