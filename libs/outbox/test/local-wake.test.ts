// A quiet connection (QUIET_OUTBOX_OPTION, markQuietOutbox): its outbox inserts send no NOTIFY, and enqueueOutbox
// wakes this process's relay once the transaction commits — or, with no relay here, NOTIFYs in the transaction.
import { Client, Pool } from 'pg';
import { inTransaction } from '@vellum/db';
import { createInProcessMessaging, type Delivery } from '@vellum/messaging';
import { createTestDatabase, type TestDatabase } from '@vellum/testing';
import { OUTBOX_CHANNEL, OUTBOX_MIGRATIONS_DIR, QUIET_OUTBOX_OPTION, enqueueOutbox, markQuietOutbox, startOutboxRelay } from '../src';

let db: TestDatabase;
let listen: Client;
let quietPool: Pool;
const notifications: string[] = [];
beforeAll(async () => {
  db = await createTestDatabase({ migrationsDir: OUTBOX_MIGRATIONS_DIR });
  listen = new Client({ connectionString: db.url });
  await listen.connect();
  listen.on('notification', (n) => notifications.push(n.channel));
  await listen.query(`LISTEN ${OUTBOX_CHANNEL}`);
  quietPool = new Pool({ connectionString: db.url, max: 2, pipeline: true, options: QUIET_OUTBOX_OPTION });
  quietPool.on('connect', markQuietOutbox);
});
afterAll(async () => {
  await quietPool.end();
  await listen.end();
  await db.drop();
});

const until = async (cond: () => boolean, ms = 5000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
};
const settle = () => new Promise((r) => setTimeout(r, 300)); // time for a notification to arrive, if one was sent
const enqueueIn = async (pool: Pool, subject: string) => {
  const c = await pool.connect();
  try {
    return await inTransaction(c, () => enqueueOutbox(c, { destination: 'MAIL', subject, payload: { subject } }));
  } finally {
    c.release();
  }
};

it('with a relay in this process: published at once without any NOTIFY (the relay polls once a minute)', async () => {
  const messaging = createInProcessMessaging();
  const got: Delivery<unknown>[] = [];
  const q = await messaging.workQueue('MAIL', { subjects: ['mail.>'] });
  await q.consume({ durable: 'test', concurrency: 1, handler: async (d) => void got.push(d) });
  const relay = await startOutboxRelay({
    connectionString: db.url,
    messaging,
    destinations: { MAIL: { type: 'queue', subjects: ['mail.>'] } },
    pollMs: 60_000,
  });
  try {
    await relay.idle();
    await settle();
    notifications.length = 0;
    for (let i = 0; i < 3; i++) {
      const [id] = await enqueueIn(quietPool, `mail.local.${i}`);
      await until(() => got.some((d) => d.id === id), 3000);
    }
    await settle();
    expect(notifications).toEqual([]);
  } finally {
    await relay.stop();
    await messaging.close();
  }
});

it('with no relay in this process: one NOTIFY per transaction; a connection not marked quiet: the trigger notifies', async () => {
  notifications.length = 0;
  await enqueueIn(quietPool, 'mail.remote');
  await until(() => notifications.length === 1);
  const loud = new Pool({ connectionString: db.url, max: 1, pipeline: true });
  try {
    await enqueueIn(loud, 'mail.loud');
    await until(() => notifications.length === 2);
  } finally {
    await loud.end();
  }
  await settle();
  expect(notifications).toEqual([OUTBOX_CHANNEL, OUTBOX_CHANNEL]);
});

it('the option alone silences the trigger (an insert on such a connection outside enqueueOutbox notifies nobody)', async () => {
  const raw = new Client({ connectionString: db.url, options: QUIET_OUTBOX_OPTION });
  await raw.connect();
  try {
    notifications.length = 0;
    await raw.query(`INSERT INTO outbox (id, destination, subject) VALUES (gen_random_uuid(), 'MAIL', 'mail.raw')`);
    await settle();
    expect(notifications).toEqual([]);
  } finally {
    await raw.end();
  }
});
