import { Client } from 'pg';
import { inTransaction } from '@vellum/db';
import { runWithRequestContext } from '@vellum/logger';
import { createTestDatabase, type TestDatabase } from '@vellum/testing';
import { OUTBOX_MIGRATIONS_DIR, enqueueOutbox } from '../src';

let db: TestDatabase;
let pg: Client;
beforeAll(async () => {
  db = await createTestDatabase({ migrationsDir: OUTBOX_MIGRATIONS_DIR });
  pg = new Client({ connectionString: db.url });
  await pg.connect();
});
afterAll(async () => {
  await pg.end();
  await db.drop();
});

describe('enqueueOutbox on a pg connection', () => {
  it('writes many messages in one statement, in the order given, with their ids, payloads (null kept) and headers', async () => {
    const texts: string[] = [];
    const counting = { query: (config: { name: string; text: string; values: unknown[] }) => (texts.push(config.text), pg.query(config)) };
    const messages = Array.from({ length: 50 }, (_, i) => ({
      destination: i % 2 ? 'ITEMS' : 'kv_test',
      subject: `s.${i}`,
      payload: i === 7 ? null : { i, text: `it's "quoted" \\ ${i}`, nested: [i, { x: null }] },
      headers: { 'x-n': String(i) },
      ...(i === 3 ? { id: '00000000-0000-4000-8000-000000000003' } : {}),
    }));
    const ids = await runWithRequestContext({ requestId: 'req-41' }, () => enqueueOutbox(counting, messages));
    expect(texts).toHaveLength(1);
    expect(ids[3]).toBe('00000000-0000-4000-8000-000000000003');
    const { rows } = await pg.query(`SELECT id, destination, subject, payload, headers FROM outbox ORDER BY seq`);
    expect(rows.map((r) => r.id)).toEqual(ids);
    expect(rows.map((r) => [r.destination, r.subject, r.payload])).toEqual(messages.map((m) => [m.destination, m.subject, m.payload]));
    expect(rows.every((r, i) => r.headers['x-n'] === String(i) && r.headers['x-request-id'] === 'req-41')).toBe(true);
  });

  it('one message, and none (no statement)', async () => {
    const texts: string[] = [];
    const counting = { query: (config: { name: string; text: string; values: unknown[] }) => (texts.push(config.text), pg.query(config)) };
    expect(await enqueueOutbox(counting, [])).toEqual([]);
    const [id] = await enqueueOutbox(counting, { destination: 'MAIL', subject: 'mail.x', payload: { to: 'a@example.com' } });
    expect(texts).toHaveLength(1);
    const { rows } = await pg.query(`SELECT payload FROM outbox WHERE id = $1`, [id]);
    expect(rows[0].payload).toEqual({ to: 'a@example.com' });
  });
});

describe('enqueueOutbox inside inTransaction (answered at COMMIT)', () => {
  it('commits the messages with the transaction; a failed insert fails it with its own error and commits nothing', async () => {
    const piped = new Client({ connectionString: db.url, pipeline: true });
    await piped.connect();
    try {
      const [id] = await inTransaction(piped, async (c) => {
        await c.query(`CREATE TABLE IF NOT EXISTS side (v int)`);
        return enqueueOutbox(c, { destination: 'MAIL', subject: 'mail.tx', payload: { n: 1 } });
      });
      expect((await pg.query(`SELECT subject FROM outbox WHERE id = $1`, [id])).rows).toEqual([{ subject: 'mail.tx' }]);
      // the same id again: the insert fails (primary key); the side write before it is rolled back with it
      await expect(
        inTransaction(piped, async (c) => {
          await c.query(`INSERT INTO side VALUES (1)`);
          await enqueueOutbox(c, { id, destination: 'MAIL', subject: 'mail.again', payload: null });
          return 'answered';
        }),
      ).rejects.toThrow(/duplicate key value violates unique constraint "outbox_pkey"/);
      expect((await pg.query(`SELECT count(*)::int AS n FROM side`)).rows[0].n).toBe(0);
      expect(piped.getTransactionStatus()).toBe('I');
    } finally {
      await piped.end();
    }
  });
});
