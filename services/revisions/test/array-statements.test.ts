// A list page read as arrays (data/statement-runner.ts: arrayMode) gets its timestamps as the API's ISO text, parsed from
// what PostgreSQL sends, and its bigints as the pool gives them — against real PostgreSQL.
import { createTestDatabase, type TestDatabase } from '@vellum/testing';
import { createPool } from '../src/data/pool';
import { arrayMode } from '../src/data/statement-runner';
import { MIGRATIONS_DIR } from '../src/start';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase({ migrationsDir: MIGRATIONS_DIR });
});
afterAll(() => db.drop());

const SQL = {
  name: 'array_statements_test',
  text: `SELECT $1::timestamptz AS t, $2::timestamptz AS f, 9007199254740993::int8 AS big, 5::int8 AS small, NULL::timestamptz AS none`,
  values: ['2026-11-27T08:00:00.57Z', '2026-03-01T23:59:59.999999Z'],
};

it('reads timestamps as ISO text, the same as the Date the pool gives elsewhere', async () => {
  const pool = createPool(db.url, 1);
  try {
    const asDates = (await pool.query(SQL)).rows[0] as Record<string, unknown>;
    const [row] = (await pool.query(arrayMode(SQL))).rows as unknown as unknown[][];
    expect(row).toEqual(['2026-11-27T08:00:00.570Z', '2026-03-01T23:59:59.999Z', '9007199254740993', 5, null]);
    expect([row![0], row![1]]).toEqual([(asDates.t as Date).toISOString(), (asDates.f as Date).toISOString()]);
    // one statement object per statement (the prepared statement and its parsers are kept with it)
    expect(arrayMode(SQL)).toBe(arrayMode(SQL));
  } finally {
    await pool.end();
  }
});

it('gives a Date where the text is not UTC (another session time zone): the API still writes its ISO text', async () => {
  const pool = createPool(db.url, 1);
  try {
    const c = await pool.connect();
    try {
      await c.query(`SET TIME ZONE 'Asia/Kolkata'`);
      const [row] = (await c.query(arrayMode(SQL))).rows as unknown as unknown[][];
      expect(row![0]).toBeInstanceOf(Date);
      expect((row![0] as Date).toISOString()).toBe('2026-11-27T08:00:00.570Z');
    } finally {
      c.release(true);
    }
  } finally {
    await pool.end();
  }
});
