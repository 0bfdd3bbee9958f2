import type { Pool } from 'pg';
import { handOverBatch } from './hand-over-batch';
import type { BatchOptions } from './relay-batch';
import { SettleTracker } from './settle-tracker';

// the claim reads a payload as its JSON text
const row = (id: string, destination = 'MAIL') => ({ id, destination, subject: 's', payload: '{}', headers: {} });
const destinations = { MAIL: { type: 'queue' as const, subjects: ['mail.>'] }, kv: { type: 'kv' as const } };

/** A pool that answers the mark-and-claim with the next of `claims` and records every statement (first words, params). */
function fakePool(claims: unknown[][], failOn?: RegExp) {
  const statements: { sql: string; params: unknown[] }[] = [];
  const query = jest.fn(async (q: string | { text: string; values: unknown[] }, params?: unknown[]) => {
    const sql = typeof q === 'string' ? q : q.text;
    statements.push({ sql: sql.trim().split(/\s+/).slice(0, 3).join(' '), params: typeof q === 'string' ? (params ?? []) : q.values });
    if (failOn?.test(sql)) throw new Error('db down');
    return { rows: sql.includes('SELECT') ? (claims.shift() ?? []) : [] };
  });
  return { pool: { query } as unknown as Pool, statements };
}

function opts(pool: Pool, maxAwaiting = 40, publish: (r: { id: string }) => Promise<void> = async () => undefined): BatchOptions {
  return {
    pool,
    batchSize: 10,
    maxAwaiting,
    tracker: new SettleTracker(pool, () => undefined),
    settles: true,
    publisherFor: async () => publish,
    destinations,
    timeoutMs: 1000,
  };
}

describe('handOverBatch', () => {
  it('marks what settled and claims the next rows in one statement, skipping the awaited ones', async () => {
    const { pool, statements } = fakePool([[row('a'), row('b')], [row('c')]]);
    const o = opts(pool);
    await expect(handOverBatch(o)).resolves.toBe(2);
    expect(statements).toEqual([{ sql: 'WITH marked AS', params: [10, [], []] }]);
    o.tracker.handOver('a')({ deadLetters: [] }); // a's consumers are done (handOver again returns a's settle callback)
    await expect(handOverBatch(o)).resolves.toBe(1);
    expect(statements[1]).toEqual({ sql: 'WITH marked AS', params: [10, ['a', 'b'], ['a']] });
    expect([...o.tracker.awaiting].sort()).toEqual(['b', 'c']);
  });

  it('claims no more than maxAwaiting rows in flight; settled rows are still marked', async () => {
    const { pool, statements } = fakePool([[row('a'), row('b'), row('c')], [row('d')]]);
    const o = opts(pool, 3);
    await handOverBatch(o);
    await expect(handOverBatch(o)).resolves.toBe(0);
    expect(statements).toHaveLength(1); // full: nothing claimed, nothing to mark
    o.tracker.handOver('b')({ deadLetters: [] });
    await expect(handOverBatch(o)).resolves.toBe(1);
    expect(statements[1]).toEqual({ sql: 'WITH marked AS', params: [1, ['a', 'b', 'c'], ['b']] });
  });

  it('marks a dead-lettered row with its reason; a KV row is settled at once and marked by the next pass', async () => {
    const { pool, statements } = fakePool([[row('k', 'kv')], []]);
    const o = opts(pool);
    await handOverBatch(o);
    o.tracker.handOver('x')({ deadLetters: [{ durable: 'mailer', reason: 'bad' }] });
    await handOverBatch(o);
    expect(statements.map((s) => s.sql)).toEqual(['WITH marked AS', 'UPDATE "outbox" SET', 'WITH marked AS']);
    expect(statements[1]!.params).toEqual(['x', 'dead letter: mailer: bad']);
    expect(statements[2]!.params).toEqual([10, ['k', 'x'], ['k']]);
    expect(o.tracker.awaiting.size).toBe(0);
  });

  it('a failed publish counts an attempt and throws; the row is claimed again later', async () => {
    const { pool, statements } = fakePool([[row('a'), row('b')]]);
    const o = opts(pool, 40, async (r) => {
      if (r.id === 'b') throw new Error('broker down');
    });
    await expect(handOverBatch(o)).rejects.toThrow('broker down');
    expect(statements[1]).toEqual({ sql: 'UPDATE "outbox" SET', params: ['b', 'broker down'] });
    expect([...o.tracker.awaiting]).toEqual(['a']);
  });

  it('when the database fails, what settled is marked on a later pass', async () => {
    const { pool } = fakePool([[row('a')]], /WITH marked/);
    const o = opts(pool);
    o.tracker.handOver('z')({ deadLetters: [] });
    await expect(handOverBatch(o)).rejects.toThrow('db down');
    expect(o.tracker.backlog).toBe(1);
    expect([...o.tracker.awaiting]).toEqual(['z']);
  });
});
