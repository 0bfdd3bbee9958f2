import request from 'supertest';
import { harness, type Harness } from './helpers';

// A write statement is prepared once per connection; from its sixth run PostgreSQL may keep one generic plan for
// every parameter value. For `id = ANY($2)` on a new collection's table (no statistics yet) that plan was a
// sequential scan of the whole table on every one-item PATCH, DELETE or unchanged PATCH. One key is now `id = $2`.

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

test('one-item writes probe the key on a table without statistics, however often they run', async () => {
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
  const s = await statsAfter(RUNS, RUNS);
  expect(Number(s.n_tup_upd)).toBe(RUNS);
  expect(Number(s.n_tup_del)).toBe(RUNS);
  expect({ seq_scan: Number(s.seq_scan), seq_tup_read: Number(s.seq_tup_read) }).toEqual({ seq_scan: 0, seq_tup_read: 0 });
});
