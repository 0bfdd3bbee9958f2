import { Client } from 'pg';
import { REVISION_BLOCK_SIZE } from '../src/data/record-counts.repository';

/** 20 even collections: revision g is in collection c(g % 20). */
export const EVEN_20 = `'c' || (g % 20)`;

/**
 * Seeds `n` revisions (+ their activity) with generate_series, then the counters. `collection` is the SQL that
 * names revision g's collection (g = 1…n, `$1` = n): 20 even collections unless another layout is asked for.
 */
export async function seedRevisions(url: string, n: number, log: (m: string) => void, collection = EVEN_20): Promise<void> {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    const { rows } = await c.query<{ n: string }>('SELECT count(*) AS n FROM revisions');
    if (Number(rows[0]!.n) === n) {
      log(`already seeded with ${n} revisions`);
      return;
    }
    const started = Date.now();
    await c.query('TRUNCATE revisions, activity, record_counts, revision_blocks RESTART IDENTITY');
    await c.query('SET maintenance_work_mem = \'256MB\'');
    await c.query(`
      INSERT INTO activity (id, action, "user", timestamp, ip, user_agent, collection, item, origin, event_id)
      SELECT g, CASE WHEN g <= 20000 THEN 'create' ELSE 'update' END, 'user-' || (g % 50),
             timestamptz '2025-01-01T00:00:00Z' + g * interval '1 second', '127.0.0.1', 'bench', ${collection},
             (g % 20000)::text, 'http://localhost', 'ev-' || g
        FROM generate_series(1, $1::int) AS g`, [n]);
    await c.query(`
      INSERT INTO revisions (id, activity, collection, item, data, delta, parent, version, event_id, timestamp, delta_computed)
      SELECT g, g, ${collection}, (g % 20000)::text,
             jsonb_build_object('id', g % 20000, 'title', 'Title ' || g, 'body', repeat('lorem ', 20), 'status', 'published', 'n', g),
             jsonb_build_object('title', 'Title ' || g, 'n', g),
             NULL, NULL, 'ev-' || g, timestamptz '2025-01-01T00:00:00Z' + g * interval '1 second', true
        FROM generate_series(1, $1::int) AS g`, [n]);
    await c.query(`SELECT setval('activity_id_seq', $1::int), setval('revisions_id_seq', $1::int)`, [n]);
    await c.query(`INSERT INTO record_counts SELECT 'revisions', collection, count(*) FROM revisions GROUP BY collection`);
    await c.query(`INSERT INTO record_counts SELECT 'activity', collection, count(*) FROM activity GROUP BY collection`);
    await c.query(`INSERT INTO revision_blocks SELECT collection, id / $1::int, count(*) FROM revisions GROUP BY 1, 2`, [REVISION_BLOCK_SIZE]);
    await c.query('VACUUM ANALYZE activity');
    await c.query('VACUUM ANALYZE revisions');
    await c.query('VACUUM ANALYZE record_counts');
    await c.query('VACUUM ANALYZE revision_blocks');
    log(`seeded ${n} revisions in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    await c.end();
  }
}
