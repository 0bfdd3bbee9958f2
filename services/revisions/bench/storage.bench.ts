/* eslint-disable no-restricted-properties -- a bench script: its knobs are environment variables */
// Storage of the history: bytes per 1,000,000 revisions (heap, TOAST, indexes; activity beside) for a small item
// (~200 B of JSON, the read bench's shape) and a large one (~6 KB: an article body, stored out of line in TOAST),
// with PostgreSQL's default TOAST compression (pglz) and with lz4 (`ALTER TABLE … SET COMPRESSION lz4`), and what
// a page of 25 revisions costs to read back (detoasting) in each. One run, on one server: compare the rows.
//   node --import tsx services/revisions/bench/storage.bench.ts      (STORAGE_ROWS, default 200000; BENCH_DATABASE_URL)
import { Client } from 'pg';
import { databaseUrl, dropDatabase, migrate, withClient } from '@vellum/db';
import { MIGRATIONS_DIR } from '../src/start';

const SERVER = process.env.BENCH_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/postgres';
const ROWS = Number(process.env.STORAGE_ROWS ?? 200_000);
const READS = 2000;

const WORDS = `'the','a','revision','item','of','and','to','in','content','platform','history','user','role','permission',
  'collection','field','value','change','article','published','draft','review','editor','team','with','for','on','is','was',
  'data','store','query','filter','page','time','date','author','title','body','section','paragraph','note','link','image',
  'update','create','delete','version'`.replace(/\s+/g, '');

const SHAPES = {
  small: `jsonb_build_object('id', g % 20000, 'title', 'Title ' || g, 'body', repeat('lorem ', 20), 'status', 'published', 'n', g)`,
  // ~5 KB of prose-like text: 800 words drawn at random from 48 (compressible as text is; random hex is not)
  large: `jsonb_build_object('id', g % 20000, 'title', 'Title ' || g, 'body', (SELECT string_agg((ARRAY[${WORDS}])[1 + abs(hashint4(g * 1000 + k)) % 48], ' ') FROM generate_series(1, 800) k), 'status', 'published', 'n', g)`,
} as const;

interface Result {
  shape: string;
  compression: string;
  insertS: number;
  heapMB: number;
  toastMB: number;
  indexMB: number;
  activityMB: number;
  readUs: number;
}

const mb = (bytes: number) => ((bytes / ROWS) * 1_000_000) / 1024 / 1024;

async function measure(shape: keyof typeof SHAPES, compression: 'pglz' | 'lz4'): Promise<Result> {
  const name = `vellum_bench_storage_${shape}_${compression}_${Date.now().toString(36)}`;
  await withClient(SERVER, (c) => c.query(`CREATE DATABASE "${name}"`));
  const url = databaseUrl(SERVER, name);
  try {
    await migrate({ connectionString: url, migrationsDir: MIGRATIONS_DIR });
    const c = new Client({ connectionString: url });
    await c.connect();
    try {
      if (compression === 'lz4') await c.query(`ALTER TABLE revisions ALTER COLUMN data SET COMPRESSION lz4, ALTER COLUMN delta SET COMPRESSION lz4`);
      const started = Date.now();
      await c.query(
        `
        INSERT INTO activity (id, action, "user", timestamp, ip, user_agent, collection, item, origin, event_id)
        SELECT g, 'update', 'user-' || (g % 50), timestamptz '2025-01-01' + g * interval '1 second', '127.0.0.1', 'bench',
               'c' || (g % 20), (g % 20000)::text, 'http://localhost', 'ev-' || g
          FROM generate_series(1, $1::int) AS g`,
        [ROWS],
      );
      await c.query(
        `
        INSERT INTO revisions (id, activity, collection, item, data, delta, event_id, timestamp, delta_computed)
        SELECT g, g, 'c' || (g % 20), (g % 20000)::text, d, d - 'id' - 'status', 'ev-' || g, timestamptz '2025-01-01' + g * interval '1 second', true
          FROM (SELECT g, ${SHAPES[shape]} AS d FROM generate_series(1, $1::int) AS g) s`,
        [ROWS],
      );
      const insertS = (Date.now() - started) / 1000;
      await c.query('VACUUM ANALYZE revisions');
      await c.query('VACUUM ANALYZE activity');
      // both tables are partitioned: their sizes are their partitions' (pg_partition_tree)
      const { rows } = await c.query(`
        SELECT sum(pg_relation_size(c.oid)) AS heap,
               sum(COALESCE(pg_total_relation_size(NULLIF(c.reltoastrelid, 0)), 0)) AS toast,
               sum(pg_indexes_size(c.oid)) AS idx,
               (SELECT sum(pg_total_relation_size(relid)) FROM pg_partition_tree('activity') WHERE isleaf) AS activity
          FROM pg_partition_tree('revisions') t JOIN pg_class c ON c.oid = t.relid WHERE t.isleaf`);
      const r = rows[0];
      const t0 = process.hrtime.bigint();
      for (let i = 0; i < READS; i++) {
        const from = 1 + ((i * 7919) % (ROWS - 25));
        await c.query('SELECT data, delta FROM revisions WHERE id >= $1 ORDER BY id LIMIT 25', [from]);
      }
      const readUs = Number(process.hrtime.bigint() - t0) / 1000 / READS;
      return {
        shape,
        compression,
        insertS,
        heapMB: mb(Number(r.heap)),
        toastMB: mb(Number(r.toast)),
        indexMB: mb(Number(r.idx)),
        activityMB: mb(Number(r.activity)),
        readUs,
      };
    } finally {
      await c.end();
    }
  } finally {
    await dropDatabase(SERVER, name);
  }
}

async function main() {
  console.log(`storage per 1,000,000 revisions, measured on ${ROWS.toLocaleString('en')} rows and scaled; read = a page of 25 (data, delta), ${READS} pages`);
  const results: Result[] = [];
  for (const shape of ['small', 'large'] as const) for (const comp of ['pglz', 'lz4'] as const) results.push(await measure(shape, comp));
  console.log('| item | TOAST compression | revisions heap MB | TOAST MB | indexes MB | total MB | activity MB | insert s (this N) | read µs/page |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const r of results)
    console.log(
      `| ${r.shape} | ${r.compression} | ${r.heapMB.toFixed(0)} | ${r.toastMB.toFixed(0)} | ${r.indexMB.toFixed(0)} | ${(r.heapMB + r.toastMB + r.indexMB).toFixed(0)} | ${r.activityMB.toFixed(0)} | ${r.insertS.toFixed(1)} | ${r.readUs.toFixed(0)} |`,
    );
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
