// What the retention tests check on a database after a run: the rows' digest, the counters against the rows, and
// every archive of a directory imported back.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import type { Pool } from 'pg';
import { importRows } from '../src/data/retention.repository';
import { REVISION_BLOCK_SIZE } from '../src/data/record-counts.repository';
import { readArchive } from '../src/domain/archive-file';
import { createHarness, type Harness } from './helpers';

/** Every row of a table as JSON text, in id order. */
export const rowsOf = async (pool: Pool, table: string): Promise<string[]> =>
  (await pool.query(`SELECT to_jsonb(t)::text AS j FROM ${table} t ORDER BY id`)).rows.map((r) => r.j as string);
export const digest = (rows: string[]): string => createHash('sha256').update(rows.join('\n')).digest('hex');

/** revision_heads names each item's newest live revision (saves to a version are not heads), and nothing else. */
export async function expectHeadsExact(pool: Pool): Promise<void> {
  const wrong = await pool.query(
    `SELECT collection, item, m.id AS newest, h.id AS head
       FROM (SELECT collection, item, max(id) AS id FROM revisions WHERE version IS NULL GROUP BY 1, 2) m
       FULL JOIN revision_heads h USING (collection, item) WHERE m.id IS DISTINCT FROM h.id LIMIT 5`,
  );
  expect(wrong.rows).toEqual([]);
  const heads = await pool.query(`SELECT count(*)::int AS n FROM revision_heads`);
  expect(heads.rows[0].n).toBeGreaterThan(0);
}

/** record_counts, revision_blocks and revision_heads equal what the tables hold. */
export async function expectCountersExact(pool: Pool): Promise<void> {
  await expectHeadsExact(pool);
  const counted = (await pool.query(`SELECT entity, collection, count::int AS n FROM record_counts WHERE count <> 0 ORDER BY 1, 2`)).rows;
  const real = (
    await pool.query(`SELECT 'activity' AS entity, collection, count(*)::int AS n FROM activity GROUP BY 2
                      UNION ALL SELECT 'revisions', collection, count(*)::int FROM revisions GROUP BY 2 ORDER BY 1, 2`)
  ).rows;
  expect(counted).toEqual(real);
  const blocks = (await pool.query(`SELECT collection, block::int AS b, count::int AS n FROM revision_blocks WHERE count <> 0 ORDER BY 1, 2`)).rows;
  const realBlocks = (
    await pool.query(`SELECT collection, (id / $1)::int AS b, count(*)::int AS n FROM revisions GROUP BY 1, 2 ORDER BY 1, 2`, [REVISION_BLOCK_SIZE])
  ).rows;
  expect(blocks).toEqual(realBlocks);
}

/** Imports every archive of `dir` (activity's before revisions'), each in a transaction; expects all its rows back. */
export async function importAllArchives(pool: Pool, dir: string, expectedFiles: number): Promise<void> {
  const manifests = readdirSync(dir)
    .filter((f) => f.endsWith('.manifest.json'))
    .sort(); // activity-… before revisions-…
  expect(manifests).toHaveLength(expectedFiles);
  for (const m of manifests) {
    const { manifest, lines } = await readArchive(path.join(dir, m));
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      expect(await importRows(client, manifest.entity, lines)).toBe(manifest.rows);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
  }
}

/** A harness at `now` and an empty archive directory for each test (handed to `use`), both gone after it. */
export function eachWithHarness(now: Date, use: (h: Harness, archiveDir: string) => void): void {
  let h: Harness | undefined;
  let dir: string | undefined;
  beforeEach(async () => {
    h = await createHarness(() => now);
    dir = mkdtempSync(path.join(tmpdir(), 'vellum-archive-'));
    use(h, dir);
  });
  afterEach(async () => {
    await h?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
}
