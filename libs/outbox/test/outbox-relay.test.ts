import { Client } from 'pg';
import { runWithRequestContext } from '@vellum/logger';
import { createInProcessMessaging, type Messaging, type Delivery } from '@vellum/messaging';
import { createTestDatabase, type TestDatabase } from '@vellum/testing';
import { OUTBOX_MIGRATIONS_DIR, enqueueOutbox, startOutboxRelay, type OutboxRelay } from '../src';

const destinations = {
  MAIL: { type: 'queue' as const, subjects: ['mail.>'] },
  ITEMS: { type: 'stream' as const, subjects: ['items.>'] },
  kv_test: { type: 'kv' as const },
};

let db: TestDatabase;
let pg: Client;
const relays: OutboxRelay[] = [];
beforeAll(async () => {
  db = await createTestDatabase({ migrationsDir: OUTBOX_MIGRATIONS_DIR });
  pg = new Client({ connectionString: db.url });
  await pg.connect();
});
afterEach(async () => {
  await Promise.all(relays.splice(0).map((r) => r.stop()));
  await pg.query('TRUNCATE "outbox"');
});
afterAll(async () => {
  await pg.end();
  await db.drop();
});

const start = async (messaging: Messaging, extra: Partial<Parameters<typeof startOutboxRelay>[0]> = {}) => {
  const r = await startOutboxRelay({ connectionString: db.url, messaging, destinations, pollMs: 60_000, ...extra });
  relays.push(r);
  return r;
};

async function collect(messaging: Messaging) {
  const got: Delivery<unknown>[] = [];
  const q = await messaging.workQueue('MAIL', { subjects: ['mail.>'] });
  await q.consume({ durable: 'test', concurrency: 1, handler: async (d) => void got.push(d) });
  return got;
}
/** In-process messaging, what its MAIL queue receives, and a relay publishing into it. */
async function relayIntoQueue() {
  const messaging = createInProcessMessaging();
  const got = await collect(messaging);
  const relay = await start(messaging);
  return { messaging, got, relay };
}
/** `write` in a transaction of the test's connection, committed. */
async function committed<T>(write: () => Promise<T>): Promise<T> {
  await pg.query('BEGIN');
  const result = await write();
  await pg.query('COMMIT');
  return result;
}
const until = async (cond: () => boolean, ms = 5000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('outbox relay', () => {
  it('publishes a message committed while the relay was down, with the row id as message id, then marks it', async () => {
    const [id] = await committed(() =>
      enqueueOutbox(pg, { destination: 'MAIL', subject: 'mail.send', payload: { hello: 1 }, headers: { 'x-request-id': 'r1' } }),
    );
    // nothing running: a crash between commit and publish
    const { messaging, got, relay } = await relayIntoQueue();
    await relay.idle();
    await until(() => got.length === 1);
    expect(got[0]).toMatchObject({ id, subject: 'mail.send', data: { hello: 1 }, headers: { 'x-request-id': 'r1' } });
    const { rows } = await pg.query('SELECT published_at FROM outbox WHERE id = $1', [id]);
    expect(rows[0].published_at).toBeInstanceOf(Date);
    await messaging.close();
  });

  it('carries the request id and traceparent of the request that enqueued the message', async () => {
    await pg.query('BEGIN');
    const [id] = await runWithRequestContext({ requestId: 'req-42', traceparent: '00-abc-def-01' }, () =>
      enqueueOutbox(pg, { destination: 'MAIL', subject: 'mail.send', payload: { n: 1 } }),
    );
    await pg.query('COMMIT');
    const { messaging, got } = await relayIntoQueue();
    await until(() => got.length === 1);
    expect(got[0]).toMatchObject({ id, headers: { 'x-request-id': 'req-42', traceparent: '00-abc-def-01' } });
    await messaging.close();
  });

  it('publishes nothing for a rolled-back transaction', async () => {
    const { messaging, got, relay } = await relayIntoQueue();
    await pg.query('BEGIN');
    await enqueueOutbox(pg, { destination: 'MAIL', subject: 'mail.send', payload: { x: 1 } });
    await pg.query('ROLLBACK');
    await relay.idle();
    await new Promise((r) => setTimeout(r, 100));
    expect(got).toHaveLength(0);
    expect((await pg.query('SELECT count(*)::int AS n FROM outbox')).rows[0].n).toBe(0);
    await messaging.close();
  });

  it('is woken by NOTIFY (no polling), publishes in order, and writes KV entries', async () => {
    const { messaging, got } = await relayIntoQueue();
    await pg.query('BEGIN');
    await enqueueOutbox(
      pg,
      Array.from({ length: 20 }, (_, i) => ({ destination: 'MAIL', subject: 'mail.send', payload: { i } })),
    );
    await enqueueOutbox(pg, { destination: 'kv_test', subject: 'k1', payload: { v: 1 } });
    await pg.query('COMMIT');
    await until(() => got.length === 20, 3000); // pollMs is 60 s: only the notification can have woken it
    expect(got.map((d) => (d.data as { i: number }).i)).toEqual([...Array(20).keys()]);
    const kv = await messaging.keyValue('kv_test');
    await new Promise((r) => setTimeout(r, 50));
    expect(await kv.get('k1')).toEqual({ v: 1 });
    await committed(() => enqueueOutbox(pg, { destination: 'kv_test', subject: 'k1', payload: null }));
    const end = Date.now() + 3000;
    while ((await kv.get('k1')) !== undefined && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
    expect(await kv.get('k1')).toBeUndefined();
    await messaging.close();
  });

  it('retries with backoff while messaging is down and never double-publishes with two relays', async () => {
    const real = createInProcessMessaging();
    const got = await collect(real);
    let down = true;
    const published: string[] = [];
    const flaky: Messaging = {
      ...real,
      // a broker that stores what it accepts (as JetStream does): rows are marked once published
      persistent: true,
      async workQueue(name, o) {
        const q = await real.workQueue(name, o);
        return {
          ...q,
          async publish(subject, data, p) {
            if (down) throw new Error('nats: connection refused');
            published.push(p.id);
            await new Promise((r) => setTimeout(r, 2));
            return q.publish(subject, data, p);
          },
        };
      },
    };
    const r1 = await start(flaky, { backoffMs: [20, 40] });
    const r2 = await start(flaky, { backoffMs: [20, 40] });
    await committed(() =>
      enqueueOutbox(
        pg,
        Array.from({ length: 50 }, (_, i) => ({ destination: 'MAIL', subject: 'mail.send', payload: { i } })),
      ),
    );
    // retried (a loaded machine may take longer than the backoff's 20 + 40 ms for the second attempt)
    const attempts = async () => (await pg.query('SELECT max(attempts)::int AS a, max(last_error) AS e FROM outbox')).rows[0];
    for (const end = Date.now() + 5000; (await attempts()).a < 2 && Date.now() < end;) await new Promise((r) => setTimeout(r, 20));
    expect(got).toHaveLength(0);
    const rows = [await attempts()];
    expect(rows[0].a).toBeGreaterThan(1);
    expect(rows[0].e).toMatch(/connection refused/);
    down = false;
    await until(() => got.length === 50);
    expect(new Set(published).size).toBe(50);
    expect(published).toHaveLength(50);
    await Promise.all([r1.idle(), r2.idle()]); // the batch commits published_at after its publishes
    expect((await pg.query('SELECT count(*)::int AS n FROM outbox WHERE published_at IS NULL')).rows[0].n).toBe(0);
    await real.close();
  });

  it('stop() drains what is pending', async () => {
    const { messaging, got, relay } = await relayIntoQueue();
    await committed(() => enqueueOutbox(pg, { destination: 'MAIL', subject: 'mail.send', payload: { last: true } }));
    await relay.stop();
    expect((await pg.query('SELECT count(*)::int AS n FROM outbox WHERE published_at IS NULL')).rows[0].n).toBe(0);
    await until(() => got.length === 1);
    await messaging.close();
  });

  describe('with in-process messaging (nothing survives the process)', () => {
    const unpublished = async () => (await pg.query('SELECT count(*)::int AS n FROM outbox WHERE published_at IS NULL')).rows[0].n;

    it('keeps a row unpublished until the declared consumer has handled it; after a "crash" it is published again', async () => {
      // first life: the consumer takes the job but never finishes (the process is killed mid-handler)
      const first = createInProcessMessaging({ consumers: { MAIL: ['mailer'] } });
      const relay1 = await start(first);
      const [id] = await committed(() => enqueueOutbox(pg, { destination: 'MAIL', subject: 'mail.send', payload: { n: 1 } }));
      // published before any member joined: the declared group is waited for all the same
      await new Promise((r) => setTimeout(r, 200));
      expect(await unpublished()).toBe(1);
      const taken: string[] = [];
      const q1 = await first.workQueue('MAIL', { subjects: ['mail.>'] });
      await q1.consume({ durable: 'mailer', handler: () => (taken.push('first'), new Promise<void>(() => undefined)) });
      await until(() => taken.length === 1);
      await expect(relay1.idle(300)).rejects.toThrow(/outbox idle/);
      expect(await unpublished()).toBe(1);
      await relay1.stop(100);
      await first.close();

      // second life: published again with the same id and marked once the handler completed
      const second = createInProcessMessaging({ consumers: { MAIL: ['mailer'] } });
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      const q2 = await second.workQueue('MAIL', { subjects: ['mail.>'] });
      const handled: string[] = [];
      await q2.consume({ durable: 'mailer', handler: async (d) => (await gate, void handled.push(d.id)) });
      const relay2 = await start(second);
      await new Promise((r) => setTimeout(r, 200));
      expect(await unpublished()).toBe(1);
      release();
      await relay2.idle();
      expect(handled).toEqual([id]);
      expect(await unpublished()).toBe(0);
      await second.close();
    });

    it('hands over at most maxAwaiting rows not yet handled: the backlog waits in the table, every row handled once and marked', async () => {
      const real = createInProcessMessaging({ consumers: { MAIL: ['slow'] } });
      let inFlight = 0;
      let most = 0;
      const counting: Messaging = {
        ...real,
        async workQueue(name, o) {
          const q = await real.workQueue(name, o);
          return {
            ...q,
            publish: (subject, data, p) => {
              most = Math.max(most, ++inFlight);
              return q.publish(subject, data, { ...p, onSettled: (x) => (inFlight--, p.onSettled?.(x)) });
            },
          };
        },
      };
      const handled: number[] = [];
      const q = await real.workQueue('MAIL', { subjects: ['mail.>'] });
      await q.consume({
        durable: 'slow',
        concurrency: 4,
        handler: async (d) => (await new Promise((r) => setTimeout(r, 1)), void handled.push((d.data as { i: number }).i)),
      });
      await committed(() =>
        enqueueOutbox(
          pg,
          Array.from({ length: 300 }, (_, i) => ({ destination: 'MAIL', subject: 'mail.send', payload: { i } })),
        ),
      );
      const relay = await start(counting, { batchSize: 10, maxAwaiting: 20 });
      await relay.idle(20_000);
      expect(handled).toHaveLength(300);
      expect(new Set(handled).size).toBe(300);
      expect(most).toBeGreaterThan(1);
      expect(most).toBeLessThanOrEqual(20);
      expect(await unpublished()).toBe(0);
      await real.close();
    });

    it('marks a dead-lettered row published with who gave up and why in last_error', async () => {
      const messaging = createInProcessMessaging({ consumers: { ITEMS: ['revisions'] } });
      const s = await messaging.eventStream('ITEMS', { subjects: ['items.>'] });
      await s.subscribe({ durable: 'revisions', handler: (d) => d.term('malformed event') });
      const relay = await start(messaging);
      const [id] = await committed(() => enqueueOutbox(pg, { destination: 'ITEMS', subject: 'items.x.create', payload: { bad: true } }));
      await relay.idle();
      const { rows } = await pg.query('SELECT published_at, last_error FROM outbox WHERE id = $1', [id]);
      expect(rows[0].published_at).toBeInstanceOf(Date);
      expect(rows[0].last_error).toBe('dead letter: revisions: malformed event');
      await messaging.close();
    });
  });
});
