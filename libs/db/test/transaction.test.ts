// withTransaction / inTransaction against a real PostgreSQL: commit, rollback, and a connection killed mid-transaction.
import { randomBytes } from 'node:crypto';
import { Pool } from 'pg';
import { afterCommit, databaseUrl, dropDatabase, ensureDatabases, inTransaction, isBroken, settleAtCommit, withTransaction } from '../src';

const adminUrl = process.env.TEST_DATABASE_URL;
if (!adminUrl) throw new Error('TEST_DATABASE_URL is not set (run through the root jest config)');
const name = `vellum_dbtest_${randomBytes(6).toString('hex')}`;
let pool: Pool;

beforeAll(async () => {
  await ensureDatabases(adminUrl, [name]);
  pool = new Pool({ connectionString: databaseUrl(adminUrl, name), max: 2 });
  await pool.query('CREATE TABLE t (v int PRIMARY KEY)');
});
afterAll(async () => {
  await pool.end();
  await dropDatabase(adminUrl, name);
});
beforeEach(() => pool.query('TRUNCATE t'));
const values = async () => (await pool.query<{ v: number }>('SELECT v FROM t ORDER BY v')).rows.map((r) => r.v);

describe('withTransaction', () => {
  it('commits what fn wrote and returns its result', async () => {
    const out = await withTransaction(pool, async (c) => {
      await c.query('INSERT INTO t VALUES (1), (2)');
      return 'done';
    });
    expect(out).toBe('done');
    expect(await values()).toEqual([1, 2]);
  });

  it('rolls back everything when fn throws, and rethrows its error', async () => {
    const boom = new Error('boom');
    await expect(
      withTransaction(pool, async (c) => {
        await c.query('INSERT INTO t VALUES (1)');
        throw boom;
      }),
    ).rejects.toBe(boom);
    expect(await values()).toEqual([]);
    expect(pool.totalCount - pool.idleCount).toBe(0); // the connection went back
  });

  it('a connection killed mid-transaction fails the call, not the process, and is not reused', async () => {
    let pid = 0;
    const call = withTransaction(pool, async (c) => {
      pid = (await c.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
      await c.query('INSERT INTO t VALUES (7)');
      await pool.query('SELECT pg_terminate_backend($1)', [pid]);
      await c.query('SELECT 1');
    });
    await expect(call).rejects.toThrow();
    const after = await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    expect(after.rows[0]!.pid).not.toBe(pid);
    expect(await values()).toEqual([]);
  });
});

describe('inTransaction on a held connection', () => {
  it('runs several transactions in turn; a failed one leaves the connection usable', async () => {
    const client = await pool.connect();
    try {
      await inTransaction(client, () => client.query('INSERT INTO t VALUES (1)'));
      await expect(inTransaction(client, () => client.query('INSERT INTO t VALUES (1)'))).rejects.toThrow(/duplicate key/);
      await inTransaction(client, () => client.query('INSERT INTO t VALUES (2)'));
      expect(isBroken(client)).toBe(false);
    } finally {
      client.release();
    }
    expect(await values()).toEqual([1, 2]);
  });
});

describe('on a pipelined connection (pg `pipeline`)', () => {
  let piped: Pool;
  beforeAll(() => {
    piped = new Pool({ connectionString: databaseUrl(adminUrl!, name), max: 2, pipeline: true });
  });
  afterAll(() => piped.end());

  it("sends BEGIN with the transaction's first statement: fn starts before BEGIN is answered", async () => {
    const status: string[] = [];
    await withTransaction(piped, async (c) => {
      status.push(c.getTransactionStatus() ?? '?'); // 'I': BEGIN not answered yet (awaited first, it would be 'T')
      await c.query('INSERT INTO t VALUES (3)');
      status.push(c.getTransactionStatus() ?? '?');
    });
    await withTransaction(pool, async (c) => void status.push(c.getTransactionStatus() ?? '?'));
    expect(status).toEqual(['I', 'T', 'T']);
    expect(await values()).toEqual([3]);
  });

  it('commits, rolls back on an error (its own or a statement’s), and leaves the connection usable', async () => {
    const client = await piped.connect();
    try {
      await inTransaction(client, () => client.query('INSERT INTO t VALUES (1)'));
      await expect(inTransaction(client, () => client.query('INSERT INTO t VALUES (1)'))).rejects.toThrow(/duplicate key/);
      await expect(
        inTransaction(client, async () => {
          throw new Error('before any statement');
        }),
      ).rejects.toThrow('before any statement');
      await inTransaction(client, async () => {
        await client.query('INSERT INTO t VALUES (2)');
        await client.query('SELECT 1');
      });
      expect(isBroken(client)).toBe(false);
      expect(client.getTransactionStatus()).toBe('I');
    } finally {
      client.release();
    }
    expect(await values()).toEqual([1, 2]);
  });
});

describe('settleAtCommit', () => {
  let piped: Pool;
  beforeAll(() => {
    piped = new Pool({ connectionString: databaseUrl(adminUrl!, name), max: 2, pipeline: true });
  });
  afterAll(() => piped.end());

  /** The client's statements in the order sent, and each one's answer in the order received. */
  function spy(c: { query: (...a: never[]) => unknown }): string[] {
    const events: string[] = [];
    const query = c.query.bind(c) as (...a: unknown[]) => Promise<unknown>;
    (c as { query: unknown }).query = (...a: unknown[]) => {
      const text = typeof a[0] === 'string' ? a[0] : (a[0] as { text: string }).text;
      events.push(`send ${text}`);
      const p = query(...a);
      p.then(
        () => events.push(`answer ${text}`),
        () => events.push(`fail ${text}`),
      );
      return p;
    };
    return events;
  }

  it('on a pipelined connection, COMMIT goes out before the statement is answered; both land', async () => {
    let events: string[] = [];
    await withTransaction(piped, async (c) => {
      events = spy(c);
      await settleAtCommit(c, c.query('INSERT INTO t VALUES (5)'));
    });
    expect(events.indexOf('send COMMIT')).toBeLessThan(events.indexOf('answer INSERT INTO t VALUES (5)'));
    expect(await values()).toEqual([5]);
  });

  it("a failed statement fails the transaction with its own error (not the later statements' 'aborted'), nothing committed", async () => {
    await expect(
      withTransaction(piped, async (c) => {
        await c.query('INSERT INTO t VALUES (1)');
        await settleAtCommit(c, c.query('INSERT INTO t VALUES (1)'));
        await c.query('INSERT INTO t VALUES (2)').catch(() => undefined); // aborted by then
        return 'answered';
      }),
    ).rejects.toThrow(/duplicate key/);
    await expect(withTransaction(piped, async (c) => settleAtCommit(c, c.query('SELECT 1/0')))).rejects.toThrow(/division by zero/);
    expect(await values()).toEqual([]);
  });

  it('outside a transaction, awaits the statement', async () => {
    await expect(settleAtCommit(pool, pool.query('SELECT 1/0'))).rejects.toThrow(/division by zero/);
  });
});

describe('afterCommit', () => {
  it('runs once the transaction committed (its writes visible to others), not after a rollback, and not outside one', async () => {
    const seen: number[][] = [];
    await withTransaction(pool, async (c) => {
      await c.query('INSERT INTO t VALUES (8)');
      expect(afterCommit(c, () => void pool.query<{ v: number }>('SELECT v FROM t').then((r) => seen.push(r.rows.map((x) => x.v))))).toBe(true);
    });
    await expect(
      withTransaction(pool, async (c) => {
        afterCommit(c, () => seen.push([-1]));
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    const held = await pool.connect();
    try {
      expect(afterCommit(held, () => seen.push([-2]))).toBe(false);
    } finally {
      held.release();
    }
    await new Promise((r) => setTimeout(r, 100));
    expect(seen).toEqual([[8]]);
  });
});
