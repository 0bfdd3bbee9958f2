/* eslint-disable no-restricted-properties -- a bench script: its knobs are environment variables */
// Issue 18.4: retention drops a month of revisions whole, against a DELETE of the same rows, measured in one run on
// two copies of one database. January holds RETENTION_BENCH_ROWS revisions (default 1,000,000) of rows/100 items,
// 100 each; RETENTION_BENCH_NEWER % of the items (default 99) have a newer revision in February, so with
// REVISIONS_KEEP_LAST 1 January keeps the latest revision of the others (default 1% of the items: 100 rows; with
// RETENTION_BENCH_NEWER=0 every item's, 1% of the rows). Readers run the list queries the service runs (admin, and one collection) all the
// time, and report the longest a read took while each prune ran.
//   node --import tsx services/revisions/bench/retention.bench.ts      (BENCH_DATABASE_URL, RETENTION_BENCH_ROWS;
//   RETENTION_BENCH_KEEP=1 keeps the databases, and a copy of the seeded one as <name>_a_seed)
import { Client, Pool } from 'pg';
import { databaseUrl, dropDatabase, migrate, withClient } from '@vellum/db';
import { rollPartitions } from '../src/data/partition-roll';
import { runRetention } from '../src/domain/retention';
import { MIGRATIONS_DIR } from '../src/start';

const SERVER = process.env.BENCH_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/postgres';
const ROWS = Number(process.env.RETENTION_BENCH_ROWS ?? 1_000_000);
const ITEMS = Math.max(1, Math.floor(ROWS / 100));
const NEWER = Number(process.env.RETENTION_BENCH_NEWER ?? 99); // % of the items with a revision in February
const FEB_ITEMS = Math.floor(ITEMS / 100) * NEWER + Math.min(ITEMS % 100, NEWER); // items i with i % 100 < NEWER
const FEB = new Date('2026-02-01T00:00:00Z');
const NOW = new Date('2026-03-01T00:00:00Z');
const log = (m: string) => console.log(`[retention bench] ${m}`);

/** Activity and revisions for the ids of `ids` (a FROM item naming `g`), at `at`, of item `item`. */
const rowsSql = (ids: string, at: string, item: string) => `
      INSERT INTO activity (id, action, "user", timestamp, collection, item, event_id)
      SELECT g, 'update', 'u', ${at}, 'c' || ((${item}) % 20), (${item})::text, 'ev-' || g FROM ${ids};
      INSERT INTO revisions (id, activity, collection, item, data, delta, event_id, timestamp, delta_computed)
      SELECT id, id, collection, item, jsonb_build_object('title', 'Title ' || id, 'body', repeat('lorem ', 20), 'n', id),
             jsonb_build_object('n', id), event_id, timestamp, true FROM activity WHERE id IN (SELECT g FROM ${ids});`;

async function seed(url: string): Promise<void> {
  await migrate({ connectionString: url, migrationsDir: MIGRATIONS_DIR });
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(`SET maintenance_work_mem = '256MB'`);
    // January: ids 1…ROWS, item g % ITEMS, times spread over the month
    await c.query(rowsSql(`generate_series(1, ${ROWS}) g`, `timestamptz '2026-01-01' + (g::float8 / ${ROWS}) * interval '30 days'`, `g % ${ITEMS}`));
    await c.query(`SELECT setval('activity_id_seq', ${ROWS}), setval('revisions_id_seq', ${ROWS})`);
    await c.end();
  } catch (err) {
    await c.end();
    throw err;
  }
  // February's roll closes January's partition; then one newer revision for 99% of the items
  const pool = new Pool({ connectionString: url, max: 2 });
  try {
    await rollPartitions(pool, { now: new Date('2026-02-01T01:00:00Z'), lockTimeoutMs: 5000 });
    const { rows } = await pool.query<{ v: string }>(`SELECT nextval('revisions_id_seq')::text AS v`);
    const base = Number(rows[0]!.v);
    await pool.query(`SELECT setval('activity_id_seq', ${base}, false)`);
    const feb = `generate_series(${base}, ${base + ITEMS - 1}) g WHERE (g - ${base}) % 100 < ${NEWER}`;
    const c2 = await pool.connect();
    try {
      await c2.query(rowsSql(`(SELECT g FROM ${feb}) x(g)`, `timestamptz '2026-02-10' + (g - ${base}) * interval '1 second'`, `g - ${base}`));
      await c2.query(`SELECT setval('activity_id_seq', ${base + ITEMS}), setval('revisions_id_seq', ${base + ITEMS})`);
      for (const [entity, table] of [
        ['activity', 'activity'],
        ['revisions', 'revisions'],
      ])
        await c2.query(`INSERT INTO record_counts SELECT '${entity}', collection, count(*) FROM ${table} GROUP BY collection`);
      await c2.query(`INSERT INTO revision_blocks SELECT collection, id / 4096, count(*) FROM revisions GROUP BY 1, 2`);
      await c2.query('VACUUM ANALYZE activity');
      await c2.query('VACUUM ANALYZE revisions');
    } finally {
      c2.release();
    }
  } finally {
    await pool.end();
  }
}

/** Readers that run the service's list queries back to back until stopped; the longest read and p99 while running. */
function readers(url: string) {
  const pool = new Pool({ connectionString: url, max: 3 });
  const times: number[] = [];
  let on = true;
  const loops = [
    'SELECT id, collection, item, data, delta FROM revisions ORDER BY id DESC LIMIT 25',
    `SELECT id, collection, item, data FROM revisions WHERE collection = 'c7' ORDER BY id DESC LIMIT 25`,
    `SELECT count(*) FROM revisions WHERE id > (SELECT max(id) - 5000 FROM revisions)`,
  ].map(async (sql) => {
    while (on) {
      const t = process.hrtime.bigint();
      await pool.query(sql);
      times.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
  });
  return {
    reset: () => (times.length = 0),
    stats: () => {
      const s = [...times].sort((a, b) => a - b);
      return { reads: s.length, maxMs: s[s.length - 1] ?? 0, p99Ms: s[Math.floor(s.length * 0.99)] ?? 0 };
    },
    stop: async () => {
      on = false;
      await Promise.all(loops);
      await pool.end();
    },
  };
}

/** The readers alone for `ms`: what the reads take when nothing is pruned. */
async function baseline(url: string, ms: number) {
  const r = readers(url);
  await new Promise((res) => setTimeout(res, 1000));
  r.reset();
  await new Promise((res) => setTimeout(res, ms));
  const s = r.stats();
  await r.stop();
  log(`reads alone: ${s.reads}, longest ${s.maxMs.toFixed(1)} ms, p99 ${s.p99Ms.toFixed(1)} ms`);
  return { what: 'nothing (reads alone)', seconds: ms / 1000, pruned: 0, ...s };
}

async function timed(url: string, what: string, run: (pool: Pool) => Promise<number>) {
  const r = readers(url);
  await new Promise((res) => setTimeout(res, 1000));
  r.reset();
  const pool = new Pool({ connectionString: url, max: 2 });
  const t = process.hrtime.bigint();
  const pruned = await run(pool);
  const seconds = Number(process.hrtime.bigint() - t) / 1e9;
  const during = r.stats();
  await pool.end();
  await r.stop();
  const left = await withClient(url, (c) => c.query<{ n: string }>('SELECT count(*) AS n FROM revisions'));
  log(
    `${what}: ${seconds.toFixed(3)} s, ${pruned} pruned, ${left.rows[0]!.n} left; reads meanwhile: ${during.reads}, longest ${during.maxMs.toFixed(1)} ms, p99 ${during.p99Ms.toFixed(1)} ms`,
  );
  return { what, seconds, pruned, ...during };
}

async function main() {
  const stamp = Date.now().toString(36);
  const a = `vellum_bench_retention_${stamp}_a`;
  const b = `vellum_bench_retention_${stamp}_b`;
  await withClient(SERVER, (c) => c.query(`CREATE DATABASE "${a}"`));
  try {
    const started = Date.now();
    await seed(databaseUrl(SERVER, a));
    log(`seeded ${ROWS} January revisions + ${FEB_ITEMS} in February in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    await withClient(SERVER, (c) => c.query(`CREATE DATABASE "${b}" TEMPLATE "${a}"`));
    const maxAge = NOW.getTime() - FEB.getTime();
    const alone = await baseline(databaseUrl(SERVER, a), 3000);
    if (process.env.RETENTION_BENCH_KEEP) await withClient(SERVER, (c) => c.query(`CREATE DATABASE "${a}_seed" TEMPLATE "${a}"`));
    const byPartition = await timed(databaseUrl(SERVER, a), 'retention (January pruned whole)', async (pool) => {
      const report = await runRetention(pool, { keepLast: 1, batchSize: 1000, revisionsMaxAgeMs: maxAge }, { now: NOW });
      log(`partitions ${report.revisions?.partitions?.join(', ')}, swap lock attempts ${report.revisions?.swapLockAttempts}`);
      return report.revisions?.pruned ?? 0;
    });
    const byDelete = await timed(databaseUrl(SERVER, b), 'one DELETE of the same rows', async (pool) => {
      const { rowCount } = await pool.query(
        `DELETE FROM revisions r WHERE r.timestamp < $1
            AND r.id < (SELECT n.id FROM revisions n WHERE n.collection = r.collection AND n.item = r.item ORDER BY n.id DESC LIMIT 1)`,
        [FEB],
      );
      return rowCount ?? 0;
    });
    console.log(`\n| prune | s | rows pruned | reads meanwhile | longest read ms | p99 read ms |\n|---|---|---|---|---|---|`);
    for (const r of [alone, byPartition, byDelete])
      console.log(`| ${r.what} | ${r.seconds.toFixed(3)} | ${r.pruned} | ${r.reads} | ${r.maxMs.toFixed(1)} | ${r.p99Ms.toFixed(1)} |`);
    console.log(`\nDELETE ÷ retention by partition: ${(byDelete.seconds / byPartition.seconds).toFixed(1)}× the time`);
    if (byPartition.pruned !== byDelete.pruned) throw new Error(`pruned ${byPartition.pruned} by partition, ${byDelete.pruned} by DELETE`);
  } finally {
    if (!process.env.RETENTION_BENCH_KEEP) {
      await dropDatabase(SERVER, a);
      await dropDatabase(SERVER, b).catch(() => undefined);
    }
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
