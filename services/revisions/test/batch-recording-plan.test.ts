import { escapeLiteral } from 'pg';
import { RECORD_IN_ORDER } from '../src/data/record-in-order';
import { createHarness, type Harness } from './helpers';

/**
 * Issue 41: the one-statement recording of a batch (record-in-order.ts) reads what its events need — a probe per
 * event of activity by event id, of the item's revisions, of the parked changes — not the tables. Its plan is made
 * while the history is small (a prepared statement, planned once per connection) and kept while the history grows:
 * an EXISTS planned as a hash of every activity row, or the children link as a join over every revision without
 * a parent, made each batch cost the size of the history (a write load's history fell further behind the longer
 * it ran). Planned (generic) over empty tables, then run against 30,000 revisions: a batch of 64 changes.
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

/** The rows the plan's scans read (returned, and dropped by a filter or recheck), over the plan tree. */
function rowsScanned(node: Record<string, unknown>): number {
  const read = Number(node['Actual Rows']) + Number(node['Rows Removed by Filter'] ?? 0) + Number(node['Rows Removed by Index Recheck'] ?? 0);
  const own = typeof node['Index Name'] === 'string' || typeof node['Relation Name'] === 'string' ? read * Number(node['Actual Loops'] ?? 1) : 0;
  const kids = (node['Plans'] as Record<string, unknown>[] | undefined) ?? [];
  return own + kids.reduce((s, k) => s + rowsScanned(k), 0);
}

/** The statement's 13 arguments for `n` changes of items 0…n-1 at `version`, as SQL literals (EXECUTE takes no parameters). */
function args(n: number, prefix: string, version: number, withDelta = false): string {
  const arr = (values: (string | null)[], type: string) => `ARRAY[${values.map((v) => (v === null ? 'NULL' : escapeLiteral(v))).join(', ')}]::${type}[]`;
  const col = (f: (i: number) => string | null) => Array.from({ length: n }, (_, i) => f(i));
  return [
    arr(
      col(() => 'update'),
      'text',
    ),
    arr(
      col(() => 'u'),
      'text',
    ),
    arr(
      col(() => '2026-02-01T00:00:00Z'),
      'timestamptz',
    ),
    arr(
      col(() => null),
      'text',
    ),
    arr(
      col(() => null),
      'text',
    ),
    arr(
      col(() => 'c'),
      'text',
    ),
    arr(
      col((i) => String(i)),
      'text',
    ),
    arr(
      col(() => null),
      'text',
    ),
    arr(
      col((i) => `${prefix}-${i}`),
      'text',
    ),
    arr(
      col((i) => JSON.stringify({ n: i })),
      'jsonb',
    ),
    arr(
      col((i) => (withDelta ? JSON.stringify({ n: i }) : null)),
      'jsonb',
    ),
    arr(
      col(() => null),
      'text',
    ),
    arr(
      col(() => String(version)),
      'int8',
    ),
    arr(
      col(() => null),
      'text',
    ),
  ].join(', ');
}

it('a batch of 64 changes reads a few rows per change, not the history, with a plan made when the history was empty', async () => {
  const client = await h.pool.connect();
  try {
    await client.query(`SET plan_cache_mode = force_generic_plan`);
    await client.query(`PREPARE rio AS ${RECORD_IN_ORDER.text}`);
    await client.query(`EXECUTE rio(${args(1, 'first', 1)})`); // planned now, over empty tables
    await client.query(`
      INSERT INTO activity (id, action, "user", timestamp, collection, item, event_id)
      SELECT g, 'update', 'u', timestamp '2026-01-01' + g * interval '1 s', 'c', (g % 500)::text, 'ev-' || g FROM generate_series(10, 30000) g;
      INSERT INTO revisions (id, activity, collection, item, data, delta, event_id, timestamp, delta_computed, item_version)
      SELECT id, id, collection, item, jsonb_build_object('n', id), NULL, event_id, timestamp, true, (id + 499) / 500 FROM activity WHERE id >= 10;
      SELECT setval('revisions_id_seq', 30000), setval('activity_id_seq', 30000);
    `);
    await client.query('BEGIN');
    const { rows } = await client.query(`EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE rio(${args(64, 'new', 61)})`);
    const plan = rows[0]['QUERY PLAN'][0].Plan as Record<string, unknown>;
    // 64 events: each probes a handful of rows (its previous revision, its item's newest version, …)
    expect(rowsScanned(plan)).toBeLessThan(64 * 20);
    const { rows: recorded } = await client.query(`SELECT count(*)::int AS n FROM revisions WHERE event_id LIKE 'new-%'`);
    expect(recorded[0].n).toBe(64);
    await client.query('ROLLBACK');
    // changes that carry their delta (as items sends them) read no previous revision: 64 rows fewer
    await client.query('BEGIN');
    const { rows: carried } = await client.query(`EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE rio(${args(64, 'delta', 61, true)})`);
    expect(rowsScanned(carried[0]['QUERY PLAN'][0].Plan as Record<string, unknown>)).toBeLessThanOrEqual(rowsScanned(plan) - 64);
    await client.query('ROLLBACK');
  } finally {
    await client.query('DEALLOCATE rio; RESET plan_cache_mode').catch(() => undefined);
    client.release();
  }
});
