import request from 'supertest';
import { harness, type Harness } from './helpers';

// A write statement is prepared once per connection; from its sixth run PostgreSQL may keep one generic plan for
// every parameter value. For `id = ANY($2)` on a new collection's table (no statistics yet) that plan was a
// sequential scan of the whole table on every PATCH, DELETE or unchanged PATCH. One key is now `id = $2` (always an
// index probe), several are planned with their keys each time.

const bearer = (t: string) => ({ Authorization: `Bearer ${t}` });
const ITEMS = 2000;
const RUNS = 8;
let h: Harness;

beforeAll(async () => {
  h = await harness();
  const fields = [
    { field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true } },
    { field: 'title', type: 'string' },
    { field: 'n', type: 'integer' },
  ];
  expect((await request(h.app).post('/collections').set(bearer(h.admin)).send({ collection: 'plans', fields })).status).toBe(200);
  // a new collection's table as it is until autovacuum first comes by (which it must not do during the test)
  await h.pool.query(`ALTER TABLE content.plans SET (autovacuum_enabled = false)`);
  for (let i = 0; i < ITEMS; i += 500) {
    const batch = Array.from({ length: 500 }, (_, k) => ({ title: `item ${i + k}`, n: 0 }));
    expect((await request(h.app).post('/items/plans').set(bearer(h.admin)).send(batch)).status).toBe(200);
  }
});
afterAll(() => h?.close());

interface TableStats {
  seq_scan: string;
  seq_tup_read: string;
  n_tup_upd: string;
  n_tup_del: string;
}

/** The table's counters once this many updates and deletes reached them (backends report them when idle). */
async function statsAfter(updates: number, deletes: number): Promise<TableStats> {
  for (let i = 0; ; i++) {
    const { rows } = await h.pool.query<TableStats>(
      `SELECT seq_scan, seq_tup_read, n_tup_upd, n_tup_del FROM pg_stat_user_tables WHERE schemaname = 'content' AND relname = 'plans'`,
    );
    const s = rows[0]!;
    if ((Number(s.n_tup_upd) >= updates && Number(s.n_tup_del) >= deletes) || i === 150) return s;
    await new Promise((r) => setTimeout(r, 100));
  }
}

test('writes probe the key on a table without statistics, however often they run', async () => {
  const { rows } = await h.pool.query(`SELECT last_analyze, last_autoanalyze FROM pg_stat_user_tables WHERE relname = 'plans'`);
  expect(rows[0]).toEqual({ last_analyze: null, last_autoanalyze: null });
  // one at a time: the pool hands the same connection back, so each statement runs past its fifth execution there
  for (let i = 1; i <= RUNS; i++) {
    expect((await request(h.app).patch(`/items/plans/${i}`).set(bearer(h.admin)).send({ n: i })).status).toBe(200);
  }
  for (let i = 1; i <= RUNS; i++) {
    // the stored value again: the UPDATE writes nothing and the row is read FOR UPDATE
    expect((await request(h.app).patch(`/items/plans/${i}`).set(bearer(h.admin)).send({ n: i })).status).toBe(200);
  }
  for (let i = 1; i <= RUNS; i++) {
    expect(
      (
        await request(h.app)
          .delete(`/items/plans/${100 + i}`)
          .set(bearer(h.admin))
      ).status,
    ).toBe(204);
  }
  for (let i = 1; i <= RUNS; i++) {
    const keys = [200 + 2 * i, 201 + 2 * i];
    expect(
      (
        await request(h.app)
          .patch('/items/plans')
          .set(bearer(h.admin))
          .send({ keys, data: { n: i } })
      ).status,
    ).toBe(200);
    expect(
      (
        await request(h.app)
          .delete('/items/plans')
          .set(bearer(h.admin))
          .send({ keys: [300 + 2 * i, 301 + 2 * i] })
      ).status,
    ).toBe(204);
  }
  const s = await statsAfter(3 * RUNS, 3 * RUNS);
  expect(Number(s.n_tup_upd)).toBe(3 * RUNS);
  expect(Number(s.n_tup_del)).toBe(3 * RUNS);
  expect({ seq_scan: Number(s.seq_scan), seq_tup_read: Number(s.seq_tup_read) }).toEqual({ seq_scan: 0, seq_tup_read: 0 });
});
