import path from 'node:path';
import { withClient } from '@vellum/db';
import { createTestDatabase, type TestDatabase } from '../src';

const migrationsDir = path.join(__dirname, 'fixtures', 'migrations');
const dbs: TestDatabase[] = [];
afterAll(() => Promise.all(dbs.map((d) => d.drop())));

test('gives each caller its own migrated database', async () => {
  const started = Date.now();
  const [a, b] = await Promise.all([createTestDatabase({ migrationsDir }), createTestDatabase({ migrationsDir })]);
  dbs.push(a, b);
  const third = Date.now();
  const c = await createTestDatabase({ migrationsDir });
  dbs.push(c);
  console.log(`createTestDatabase: first two ${third - started} ms, next ${Date.now() - third} ms`);

  expect(new Set([a.url, b.url, c.url]).size).toBe(3);
  // Migrated: both migrations' columns exist and both are recorded.
  await withClient(a.url, async (client) => {
    await client.query(`INSERT INTO widget (name, notes) VALUES ('only in a', 'x')`);
    const { rows } = await client.query('SELECT migration_name FROM _prisma_migrations ORDER BY migration_name');
    expect(rows.map((r) => r.migration_name)).toEqual(['20240101000000_init', '20240102000000_notes']);
  });
  // Isolated: b does not see a's row.
  await withClient(b.url, async (client) => {
    expect((await client.query('SELECT count(*)::int AS n FROM widget')).rows[0].n).toBe(0);
  });
});

test('drop() removes the database, even with connections open, and is idempotent', async () => {
  const db = await createTestDatabase({ migrationsDir });
  const admin = process.env.TEST_DATABASE_URL!;
  const exists = () => withClient(admin, async (c) => (await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [db.name])).rowCount);
  expect(await exists()).toBe(1);
  await withClient(db.url, async () => {
    await Promise.all([db.drop(), db.drop()]);
  }).catch(() => undefined); // the open connection is terminated by drop()
  expect(await exists()).toBe(0);
});
