import { Client, Pool } from 'pg';
import { ROLL_LOCK_KEY, rollPartitions } from '../src/data/partition-roll';
import { REVISION_BLOCK_SIZE } from '../src/data/record-counts.repository';
import { withIndexesBuiltAfter } from './seed-indexes';

/** 20 even collections: revision g is in collection c(g % 20). */
export const EVEN_20 = `'c' || (g % 20)`;

/** The first day of month `k` after January 2025 (UTC). */
const monthStart = (k: number) => new Date(Date.UTC(2025, k, 1));

/**
 * Seeds `n` revisions (+ their activity) with generate_series, then the counters. `collection` is the SQL that
 * names revision g's collection (g = 1…n, `$1` = n): 20 even collections unless another layout is asked for.
 * `months`: the rows are spread over that many monthly partitions (January 2025 on), each closed by the service's
 * roll as it would have been; then this month's partition is opened, so the service finds nothing to roll.
 */
export async function seedRevisions(url: string, n: number, log: (m: string) => void, collection = EVEN_20, months = 1): Promise<void> {
  const c = new Client({ connectionString: url });
  const pool = new Pool({ connectionString: url, max: 1, idleTimeoutMillis: 0 }); // one session, kept: it holds the roll lock
  await c.connect();
  try {
    const { rows } = await c.query<{ n: string; p: string }>(
      // the seed's own rows (event ids ev-…): a bench that adds rows of its own (bench/as-of.ts's hot item) reuses it too
      `SELECT (SELECT count(*) FROM revisions WHERE event_id LIKE 'ev-%') AS n, (SELECT count(*) FROM pg_inherits WHERE inhparent = 'revisions'::regclass) AS p`,
    );
    if (Number(rows[0]!.n) === n && Number(rows[0]!.p) === months + 1) {
      log(`already seeded with ${n} revisions in ${months} month(s)`);
      return;
    }
    const started = Date.now();
    await resetPartitions(c);
    await c.query('TRUNCATE revisions, activity, record_counts, revision_blocks, revision_heads RESTART IDENTITY');
    await c.query("SET maintenance_work_mem = '256MB'");
    // the service's own roll stays out while the rows go in (the seed's rolls share this session's lock)
    const holder = await pool.connect();
    await holder.query('SELECT pg_advisory_lock($1::int8)', [ROLL_LOCK_KEY.toString()]);
    holder.release();
    const params = collection.includes('$1') ? [n] : []; // a layout may name n as $1
    let base = 1;
    // the rows first, then each index in one pass (not one insert at a time into ten B-trees)
    await withIndexesBuiltAfter(c, ['revisions', 'activity'], async () => {
      for (let k = 0; k < months; k++) {
        const lo = Math.floor((k * n) / months) + 1;
        const hi = Math.floor(((k + 1) * n) / months);
        const off = base - lo;
        // one month: revision g at 2025-01-01T00:00:00Z + g s (the admin app's tests read that layout); more: spread over each month
        const at =
          months === 1
            ? `timestamptz '2025-01-01T00:00:00Z' + g * interval '1 second'`
            : `timestamptz '${monthStart(k).toISOString()}' + (g - ${lo}) * (interval '28 days' / ${Math.max(1, hi - lo + 1)})`;
        await c.query(
          `
        INSERT INTO activity (id, action, "user", timestamp, ip, user_agent, collection, item, origin, event_id)
        SELECT g + ${off}, CASE WHEN g <= 20000 THEN 'create' ELSE 'update' END, 'user-' || (g % 50),
               ${at}, '127.0.0.1', 'bench', ${collection}, (g % 20000)::text, 'http://localhost', 'ev-' || g
          FROM generate_series(${lo}, ${hi}) AS g`,
          params,
        );
        await c.query(
          `
        INSERT INTO revisions (id, activity, collection, item, data, delta, parent, version, event_id, timestamp, delta_computed)
        SELECT g + ${off}, g + ${off}, ${collection}, (g % 20000)::text,
               jsonb_build_object('id', g % 20000, 'title', 'Title ' || g, 'body', repeat('lorem ', 20), 'status', 'published', 'n', g),
               jsonb_build_object('title', 'Title ' || g, 'n', g),
               NULL, NULL, 'ev-' || g, ${at}, true
          FROM generate_series(${lo}, ${hi}) AS g`,
          params,
        );
        await c.query(`SELECT setval('activity_id_seq', $1::int8), setval('revisions_id_seq', $1::int8)`, [hi + off]);
        // the next month's roll (the last one: this month's, opening an empty partition)
        const now = k + 1 < months ? monthStart(k + 1) : new Date();
        let report = await rollPartitions(pool, { now, gap: 1000, lockTimeoutMs: 10_000 });
        for (let i = 0; !report && i < 100; i++)
          report = await new Promise((r) => setTimeout(r, 100)).then(() => rollPartitions(pool, { now, gap: 1000, lockTimeoutMs: 10_000 }));
        base = report?.revisions?.at ?? hi + off + 1;
      }
    });
    await c.query(`INSERT INTO record_counts SELECT 'revisions', collection, count(*) FROM revisions GROUP BY collection`);
    await c.query(`INSERT INTO record_counts SELECT 'activity', collection, count(*) FROM activity GROUP BY collection`);
    await c.query(`INSERT INTO revision_blocks SELECT collection, id / $1::int, count(*) FROM revisions GROUP BY 1, 2`, [REVISION_BLOCK_SIZE]);
    await c.query('VACUUM ANALYZE activity');
    await c.query('VACUUM ANALYZE revisions');
    await c.query('VACUUM ANALYZE record_counts');
    await c.query('VACUUM ANALYZE revision_blocks');
    log(`seeded ${n} revisions in ${months} month(s) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    await c.end();
    await pool.end();
  }
}

/** Back to one open partition per table (what the migration leaves), whatever an earlier seed left. */
async function resetPartitions(c: Client): Promise<void> {
  for (const table of ['activity', 'revisions']) {
    const { rows } = await c.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = $1::regclass`,
      [table],
    );
    for (const { name } of rows) await c.query(`DROP TABLE "${name}"`);
    await c.query(`CREATE TABLE ${table}_legacy PARTITION OF ${table} FOR VALUES FROM (MINVALUE) TO (MAXVALUE)`);
  }
}
