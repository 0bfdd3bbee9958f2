// Monthly partitions (issue 18.3) against real PostgreSQL: an install with history migrates in place (same rows,
// indexes attached rather than rebuilt, writes deduplicated without unique indexes), and the monthly roll closes
// the open partition while writers go on, losing and duplicating nothing.
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Pool } from 'pg';
import { databaseUrl, dropDatabase, ensureDatabases, migrate } from '@vellum/db';
import { EventWriter } from '../src/data/event.writer';
import { rollPartitions } from '../src/data/partition-roll';
import { MIGRATIONS_DIR } from '../src/start';
import { testAdminUrl } from '@vellum/testing';
import { digest, expectHeadsExact, rowsOf } from './retention-support';
import { createHarness, itemEvent, type Harness } from './helpers';

const admin = testAdminUrl();

describe('an install with history migrates in place', () => {
  const name = `vellum_parttest_${randomBytes(5).toString('hex')}`;
  const dir = mkdtempSync(path.join(tmpdir(), 'vellum-migrations-'));
  let pool: Pool;
  beforeAll(async () => {
    await ensureDatabases(admin, [name]);
    pool = new Pool({ connectionString: databaseUrl(admin, name), max: 4 });
    // dropping the database ends connections pool.end() may not have closed yet: not an error of the test
    pool.on('error', () => undefined);
  });
  afterAll(async () => {
    await pool.end();
    await dropDatabase(admin, name);
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps every row, attaches the old indexes, and records new events exactly once', async () => {
    // the migrations before partitioning, and 20,000 revisions written as the service wrote them then
    for (const m of readdirSync(MIGRATIONS_DIR).filter((n) => n < '20261207')) cpSync(path.join(MIGRATIONS_DIR, m), path.join(dir, m), { recursive: true });
    await migrate({ connectionString: databaseUrl(admin, name), migrationsDir: dir });
    await pool.query(`
      INSERT INTO activity (action, "user", timestamp, collection, item, event_id)
      SELECT 'update', 'u', timestamp '2025-01-01' + g * interval '1 minute', 'c' || (g % 4), (g % 500)::text, 'old-' || g FROM generate_series(1, 20000) g;
      INSERT INTO revisions (activity, collection, item, data, delta, event_id, timestamp, delta_computed, parent)
      SELECT id, collection, item, jsonb_build_object('n', id), jsonb_build_object('n', id), event_id, timestamp, true, CASE WHEN id > 500 THEN id - 500 END FROM activity;
      INSERT INTO record_counts SELECT 'activity', collection, count(*) FROM activity GROUP BY 2;
      INSERT INTO record_counts SELECT 'revisions', collection, count(*) FROM revisions GROUP BY 2;
      INSERT INTO revision_blocks SELECT collection, id / 4096, count(*) FROM revisions GROUP BY 1, 2;`);
    // activity's rows as they were: without `comment`, a column added after partitioning (20261210000000_activity_comment)
    const activityRows = async () =>
      (await pool.query(`SELECT (to_jsonb(t) - 'comment')::text AS j FROM activity t ORDER BY id`)).rows.map((r) => r.j as string);
    const before = { revisions: digest(await rowsOf(pool, 'revisions')), activity: digest(await activityRows()) };

    const { applied } = await migrate({ connectionString: databaseUrl(admin, name), migrationsDir: MIGRATIONS_DIR });
    expect(applied).toEqual([
      '20261207000000_history_nonunique_indexes',
      '20261208000000_partitioned_history',
      '20261209000000_revision_heads',
      '20261210000000_activity_comment',
      '20261210120000_revision_heads_key_order',
      '20261211000000_revision_heads_live',
      '20261211010000_item_state_index',
      '20261212000000_revision_heads_hot',
      '20261213000000_parent_indexes_partial',
    ]);
    await expectHeadsExact(pool); // computed for the existing rows
    expect(digest(await rowsOf(pool, 'revisions'))).toBe(before.revisions);
    expect(digest(await activityRows())).toBe(before.activity);
    const kinds = await pool.query(
      `SELECT relname, relkind::text AS k FROM pg_class WHERE relname IN ('revisions', 'activity', 'revisions_legacy', 'activity_legacy') ORDER BY 1`,
    );
    expect(kinds.rows).toEqual([
      { relname: 'activity', k: 'p' },
      { relname: 'activity_legacy', k: 'r' },
      { relname: 'revisions', k: 'p' },
      { relname: 'revisions_legacy', k: 'r' },
    ]);
    // each of the parent's indexes has exactly one index on the old rows, attached to it (none built twice)
    const parentIndexes = await pool.query(`SELECT count(*) AS n FROM pg_index WHERE indrelid = 'revisions'::regclass`);
    const legacyIndexes = await pool.query(`SELECT count(*) AS n FROM pg_index WHERE indrelid = 'revisions_legacy'::regclass`);
    expect(Number(legacyIndexes.rows[0].n)).toBe(Number(parentIndexes.rows[0].n));
    const attached = await pool.query(
      `SELECT count(*) AS n FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE c.relname LIKE 'revisions_legacy%' AND c.relkind = 'i'`,
    );
    expect(Number(attached.rows[0].n)).toBe(Number(parentIndexes.rows[0].n));

    // new events: recorded once even when written twice at once (no unique index: the writer's lock and check)
    const writer = new EventWriter(pool);
    const fresh = Array.from({ length: 30 }, (_, i) =>
      itemEvent({ collection: 'c1', item: String(i % 7), data: { i }, at: new Date(Date.UTC(2025, 2, 1, 0, i)).toISOString() }),
    );
    const login = {
      kind: 'audit' as const,
      v: 1 as const,
      id: 'login-1',
      action: 'login' as const,
      collection: 'vellum_users',
      item: 'u',
      actor: { user: 'u' },
      timestamp: '2025-03-02T00:00:00.000Z',
    };
    await Promise.all([writer.write([...fresh, login]), writer.write([...fresh].reverse().concat(login)), writer.write([login])]);
    const counts = await pool.query(
      `SELECT (SELECT count(*) FROM revisions WHERE id > 20000)::int AS r, (SELECT count(*) FROM activity WHERE id > 20000)::int AS a`,
    );
    expect(counts.rows[0]).toEqual({ r: 30, a: 31 });
    const ids = await pool.query(`SELECT count(DISTINCT event_id)::int AS n, count(*)::int AS total FROM activity`);
    expect(ids.rows[0].n).toBe(ids.rows[0].total);
    await expectHeadsExact(pool); // and kept by the new writes
  });
});

describe('the monthly roll', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(() => h.close());

  it('closes the open partition while writers go on: nothing lost or duplicated, every row in its partition', async () => {
    let n = 0;
    const batch = () =>
      Array.from({ length: 10 }, () =>
        itemEvent({ collection: 'c', item: String(++n % 13), data: { n }, at: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString() }),
      );
    await h.writer.write(batch());
    let writing = true;
    const writers = Array.from({ length: 3 }, async () => {
      while (writing) await h.writer.write(batch());
    });
    const rolled = await rollPartitions(h.pool, { now: new Date(Date.UTC(2026, 1, 2)), gap: 50_000, lockTimeoutMs: 2000 });
    for (let i = 0; i < 5; i++) await h.writer.write(batch());
    writing = false;
    await Promise.all(writers);
    expect(rolled?.revisions).toMatchObject({ closed: 'revisions_legacy', opened: 'revisions_2026_02' });
    expect(rolled?.activity).toMatchObject({ closed: 'activity_legacy', opened: 'activity_2026_02' });
    const at = rolled!.revisions!.at;
    const where = await h.pool.query<{ p: string; lo: string; hi: string; n: string }>(
      `SELECT tableoid::regclass::text AS p, min(id) AS lo, max(id) AS hi, count(*) AS n FROM revisions GROUP BY 1 ORDER BY 2`,
    );
    expect(where.rows.map((r) => r.p)).toEqual(['revisions_legacy', 'revisions_2026_02']);
    expect(Number(where.rows[0]!.hi)).toBeLessThan(at);
    expect(Number(where.rows[1]!.lo)).toBe(at);
    const total = where.rows.reduce((s, r) => s + Number(r.n), 0);
    expect(total).toBe(n);
    const distinct = await h.pool.query(`SELECT count(DISTINCT event_id)::int AS n FROM revisions`);
    expect(distinct.rows[0].n).toBe(n);
    await expectHeadsExact(h.pool); // three writers at once, across the roll
    // another replica's roll in the same month, or a second one, does nothing
    expect(await rollPartitions(h.pool, { now: new Date(Date.UTC(2026, 1, 20)) })).toEqual({});
  });

  it('closes above rows whose ids are past the sequence (restored from an archive), and past a bound they break', async () => {
    const { rows } = await h.pool.query<{ id: string }>(`SELECT max(id)::text AS id FROM revisions`);
    const restored = Number(rows[0]!.id) + 200_000; // past the sequence, in the open partition
    await h.pool.query(
      `INSERT INTO revisions (id, activity, collection, item, data, event_id, timestamp) VALUES ($1, 1, 'c', 'restored', '{}', 'restored-1', '2026-02-03')`,
      [restored],
    );
    // a bound an interrupted roll left, which that row breaks
    await h.pool.query(`ALTER TABLE revisions_2026_02 ADD CONSTRAINT revisions_2026_02_closing CHECK (id < ${restored - 5}) NOT VALID`);
    const rolled = await rollPartitions(h.pool, { now: new Date(Date.UTC(2026, 2, 2)), gap: 1000 });
    expect(rolled?.revisions).toEqual({ closed: 'revisions_2026_02', at: restored + 1000, opened: 'revisions_2026_03' });
    await h.writer.write([itemEvent({ collection: 'c', item: 'after', data: {}, at: '2026-03-02T10:00:00.000Z' })]);
    const after = await h.pool.query(`SELECT id::text, tableoid::regclass::text AS p FROM revisions WHERE item IN ('restored', 'after') ORDER BY id`);
    expect(after.rows).toEqual([
      { id: String(restored), p: 'revisions_2026_02' },
      { id: String(restored + 1000), p: 'revisions_2026_03' },
    ]);
  });

  it('rolls an empty open partition (a month without writes): the next one starts above it', async () => {
    const april = await rollPartitions(h.pool, { now: new Date(Date.UTC(2026, 3, 1)), gap: 1000 });
    const may = await rollPartitions(h.pool, { now: new Date(Date.UTC(2026, 4, 1)), gap: 1000 });
    expect(may?.revisions?.closed).toBe(april?.revisions?.opened);
    expect(may!.revisions!.at).toBe(april!.revisions!.at - 1 + 1000); // no id handed out in April: its last is its bound − 1
    await h.writer.write([itemEvent({ collection: 'c', item: 'may', data: {}, at: '2026-05-02T10:00:00.000Z' })]);
    const row = await h.pool.query(`SELECT id::text, tableoid::regclass::text AS p FROM revisions WHERE item = 'may'`);
    expect(row.rows).toEqual([{ id: String(may!.revisions!.at), p: 'revisions_2026_05' }]);
  });
});
