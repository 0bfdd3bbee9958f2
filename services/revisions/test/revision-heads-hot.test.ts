// Issue 41: recording a revision moves its item's head (revision_heads.id, the trigger's upsert). That update must
// be HOT — on its page, no index entry — which an index on `id` (or no room on the page) would prevent.
import { createHarness, itemEvent, type Harness } from './helpers';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

it('moving an item’s head touches no index: every update of revision_heads in a transaction is HOT', async () => {
  await h.writer.write([itemEvent({ collection: 'hot', item: '1', data: { v: 0 }, at: '2026-01-01T00:00:00.000Z' })]);
  const client = await h.pool.connect();
  try {
    await client.query('BEGIN');
    // the trigger's statement (vellum_revision_heads), as each recorded revision runs it
    for (let id = 1_000_000; id < 1_000_050; id++) {
      await client.query(
        `INSERT INTO revision_heads (collection, item, id) VALUES ('hot', '1', $1)
         ON CONFLICT (collection, item) DO UPDATE SET id = excluded.id WHERE revision_heads.id < excluded.id`,
        [id],
      );
    }
    const { rows } = await client.query(
      `SELECT n_tup_upd::int AS updated, n_tup_hot_upd::int AS hot FROM pg_stat_xact_user_tables WHERE relname = 'revision_heads'`,
    );
    expect(rows[0]).toEqual({ updated: 50, hot: 50 });
  } finally {
    await client.query('ROLLBACK');
    client.release();
  }
});
