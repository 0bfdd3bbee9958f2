// The service's pool plans with its own random_page_cost (src/data/pool.ts), set from DB_RANDOM_PAGE_COST, on every
// connection it opens — against real PostgreSQL.
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '@vellum/testing';
import { loadRevisionsConfig } from '../src/config';
import { createPool, DEFAULT_RANDOM_PAGE_COST } from '../src/data/pool';
import { MIGRATIONS_DIR } from '../src/start';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase({ migrationsDir: MIGRATIONS_DIR });
});
afterAll(() => db.drop());

/** `random_page_cost` as a connection (or a pool's next one) sees it. */
const shown = async (c: Pick<pg.ClientBase, 'query'>): Promise<string> =>
  (await c.query<{ random_page_cost: string }>('SHOW random_page_cost')).rows[0]!.random_page_cost;

/** `random_page_cost` as each of `n` connections held at once sees it (each a new connection of the pool). */
async function seenBy(pool: pg.Pool, n: number): Promise<string[]> {
  const clients = await Promise.all(Array.from({ length: n }, () => pool.connect()));
  try {
    return await Promise.all(clients.map(shown));
  } finally {
    for (const c of clients) c.release();
  }
}

async function databaseOwn(): Promise<string> {
  const c = new pg.Client({ connectionString: db.url });
  await c.connect();
  try {
    return await shown(c);
  } finally {
    await c.end();
  }
}

it('sets the default on every new connection, before its first statement', async () => {
  const pool = createPool(db.url, 3);
  try {
    // the SET has finished when the pool hands the connection out: nothing in flight on it (a query sent to a client
    // still busy with one is queued behind it, which pg deprecates and pg 9 drops)
    const first = (await pool.connect()) as unknown as pg.PoolClient & { activeQuery?: unknown; queryQueue: unknown[] };
    const inFlight = [first.activeQuery ?? null, first.queryQueue.length];
    first.release();
    expect(inFlight).toEqual([null, 0]);
    expect(await seenBy(pool, 3)).toEqual(Array(3).fill(String(DEFAULT_RANDOM_PAGE_COST)));
    // the very first statement of a fresh connection (no connect() before it) is planned with it as well
    const fresh = createPool(db.url, 1);
    try {
      expect(await shown(fresh)).toBe('1.1');
    } finally {
      await fresh.end();
    }
  } finally {
    await pool.end();
  }
});

it('takes DB_RANDOM_PAGE_COST; "database" leaves the database its own', async () => {
  const own = await databaseOwn();
  expect(own).not.toBe('1.1'); // PostgreSQL's default (4) unless the server was configured otherwise
  const two = createPool(db.url, 2, { randomPageCost: loadRevisionsConfig({ DATABASE_URL: db.url, DB_RANDOM_PAGE_COST: '2' }).DB_RANDOM_PAGE_COST });
  const left = createPool(db.url, 2, { randomPageCost: loadRevisionsConfig({ DATABASE_URL: db.url, DB_RANDOM_PAGE_COST: 'database' }).DB_RANDOM_PAGE_COST });
  try {
    expect(await seenBy(two, 2)).toEqual(['2', '2']);
    expect(await seenBy(left, 2)).toEqual([own, own]);
  } finally {
    await Promise.all([two.end(), left.end()]);
  }
});

it('refuses a value that is not a positive number, naming the variable', () => {
  expect(loadRevisionsConfig({ DATABASE_URL: 'postgres://x/y' }).DB_RANDOM_PAGE_COST).toBe(DEFAULT_RANDOM_PAGE_COST);
  for (const bad of ['0', '-1', 'fast', 'Infinity'])
    expect(() => loadRevisionsConfig({ DATABASE_URL: 'postgres://x/y', DB_RANDOM_PAGE_COST: bad })).toThrow(/DB_RANDOM_PAGE_COST/);
  expect(() => createPool('postgres://x/y', 1, { randomPageCost: 0 })).toThrow(RangeError);
});
