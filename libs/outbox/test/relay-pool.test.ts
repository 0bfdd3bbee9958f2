// The relay's connections commit without waiting for the WAL flush (relay-pool.ts): its marks are bookkeeping a
// crash may lose (the row is published again under its id, a duplicate every consumer drops). The writes it relays
// and the recorder's transactions keep the database's setting.
import { Pool, escapeIdentifier } from 'pg';
import { createTestDatabase, type TestDatabase } from '@vellum/testing';
import { OUTBOX_MIGRATIONS_DIR } from '../src';
import { createRelayPool } from '../src/relay-pool';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase({ migrationsDir: OUTBOX_MIGRATIONS_DIR });
});
afterAll(() => db.drop());

it("the relay's connections commit asynchronously; another connection keeps the database's setting", async () => {
  // the database's own default made synchronous (a test server may run without it): only the relay overrides it
  const admin = new Pool({ connectionString: db.url, max: 1 });
  const name = (await admin.query<{ d: string }>('SELECT current_database() AS d')).rows[0]!.d;
  await admin.query(`ALTER DATABASE ${escapeIdentifier(name)} SET synchronous_commit = on`);
  await admin.end();
  const relay = createRelayPool(db.url);
  const other = new Pool({ connectionString: db.url, max: 1 });
  try {
    const setting = async (p: Pool) => (await p.query<{ synchronous_commit: string }>('SHOW synchronous_commit')).rows[0]!.synchronous_commit;
    expect(await setting(relay)).toBe('off');
    expect(await setting(other)).toBe('on');
    const app = await relay.query<{ application_name: string }>('SHOW application_name');
    expect(app.rows[0]!.application_name).toBe('vellum-outbox-relay');
  } finally {
    await Promise.all([relay.end(), other.end()]);
  }
});
