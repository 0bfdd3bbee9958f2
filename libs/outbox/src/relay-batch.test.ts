import type { Pool } from 'pg';
import type { Publisher } from './publish-rows';
import { relayBatch, type BatchOptions } from './relay-batch';
import { SettleTracker } from './settle-tracker';

const row = (id: string, destination = 'MAIL') => ({ id, destination, subject: 's', payload: {}, headers: {} });
const destinations = { MAIL: { type: 'queue' as const, subjects: ['mail.>'] }, kv: { type: 'kv' as const } };

/** A pool whose client answers the claim with `rows` and records every statement. */
function fakePool(rows: unknown[], failOn?: RegExp) {
  const statements: string[] = [];
  const client = {
    query: jest.fn(async (sql: string, _params?: unknown[]) => {
      statements.push(sql.trim().split(/\s+/).slice(0, 3).join(' '));
      if (failOn?.test(sql)) throw new Error('db down');
      return { rows: sql.includes('SELECT') ? rows : [] };
    }),
    release: jest.fn(),
    on: jest.fn(),
    off: jest.fn(),
  };
  const pool = { connect: jest.fn(async () => client), query: jest.fn(async () => ({ rows: [] })) };
  return { pool: pool as unknown as Pool, client, statements };
}
const opts = (pool: Pool, publish: Publisher, settles = false): BatchOptions => ({
  pool,
  batchSize: 10,
  tracker: new SettleTracker(pool, () => undefined),
  settles,
  maxAwaiting: 40,
  publisherFor: async () => publish,
  destinations,
  timeoutMs: 1000,
});

describe('relayBatch', () => {
  it('claims, publishes and marks in one transaction, and counts what it published', async () => {
    const { pool, client, statements } = fakePool([row('a'), row('b', 'kv')]);
    await expect(relayBatch(opts(pool, async () => undefined))).resolves.toBe(2);
    expect(statements).toEqual(['BEGIN', 'SELECT "id", "destination",', 'UPDATE "outbox" SET', 'COMMIT']);
    expect(client.query.mock.calls[2]![1]).toEqual([['a', 'b']]);
    expect(client.release).toHaveBeenCalled();
  });
  it('records a failure in the same transaction, then throws it; the row is no longer awaited', async () => {
    const { pool, client, statements } = fakePool([row('a'), row('b')]);
    const o = opts(pool, async (r) => {
      if (r.id === 'b') throw new Error('broker down');
    });
    await expect(relayBatch(o)).rejects.toThrow('broker down');
    expect(statements).toEqual(['BEGIN', 'SELECT "id", "destination",', 'UPDATE "outbox" SET', 'UPDATE "outbox" SET', 'COMMIT']);
    expect(client.query.mock.calls[3]![1]).toEqual(['b', 'broker down']);
  });
  it('hands rows over when messaging settles (hand-over-batch.ts): no transaction', async () => {
    const { pool, statements } = fakePool([]);
    (pool.query as jest.Mock).mockResolvedValue({ rows: [row('a')] });
    const o = opts(pool, async () => undefined, true);
    await expect(relayBatch(o)).resolves.toBe(1);
    expect(statements).toEqual([]);
    expect([...o.tracker.awaiting]).toEqual(['a']);
  });
  it('rolls back when the database fails', async () => {
    const { pool, client, statements } = fakePool([row('a')], /UPDATE/);
    await expect(relayBatch(opts(pool, async () => undefined))).rejects.toThrow('db down');
    expect(statements.at(-1)).toBe('ROLLBACK');
    expect(client.release).toHaveBeenCalled();
  });
});
