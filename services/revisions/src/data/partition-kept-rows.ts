import type { PoolClient } from 'pg';
import { rangeCheckSql, type Partition, type PartitionedTable } from './partitions.repository';

/**
 * Copies into `n` the rows a closed partition `p` keeps when it is pruned at `cutoff` (in the caller's
 * transaction), and returns how many: rows newer than the cutoff, and
 * - revisions: every save to a content version (`version` set: never pruned; found by the same pass over the
 *   partition that finds the rows newer than the cutoff), and each item's newest `keepLast` live revisions overall (saves not counted) that lie in this partition. The latest alone (`keepLast` 1, the
 *   default) are the item heads inside the partition's range (revision_heads, live revisions only: one pass over it). More are
 *   found from the item's newest row here (one index descent per item) and a look at the newer partitions only (has
 *   the item `keepLast` newer rows there?), never by reading every row;
 * - activity: the rows a revision refers to.
 * The ids are gathered first (a temporary table), then the rows are fetched by primary key.
 */
export async function copyKeptRows(
  client: PoolClient,
  table: PartitionedTable,
  p: string,
  n: string,
  part: Partition & { hi: number },
  cutoff: Date,
  keepLast: number,
  /** The most items found by the skip scan before one pass over the index is cheaper (default: rows / 20, ≥ 10,000). */
  skipScanItems?: number,
): Promise<number> {
  await client.query('CREATE TEMP TABLE vellum_kept (id int8 PRIMARY KEY) ON COMMIT DROP');
  const versionSaves = table === 'revisions' ? ' OR version IS NOT NULL' : '';
  await client.query(`INSERT INTO vellum_kept SELECT id FROM ${p} WHERE timestamp >= $1${versionSaves}`, [cutoff]);
  if (table === 'activity') {
    await client.query(
      `INSERT INTO vellum_kept SELECT DISTINCT r.activity FROM revisions r WHERE ${rangeCheckSql(part.lo, part.hi, 'r.activity')}
       ON CONFLICT DO NOTHING`,
    );
  } else if (Math.floor(keepLast) <= 1) {
    // each item's latest revision: the heads that lie in this partition (revision_heads, kept by a trigger)
    await client.query(
      `INSERT INTO vellum_kept SELECT id FROM revision_heads WHERE ${rangeCheckSql(part.lo, part.hi, 'id')} ON CONFLICT DO NOTHING`,
    );
  } else {
    await newestPerItem(client, p, skipScanItems);
    const last = Math.floor(keepLast);
    // the item's newest `last` here, less as many as it has in newer partitions (ids ≥ hi: only those are read)
    await client.query(
      `INSERT INTO vellum_kept
       SELECT k.id FROM vellum_newest i
        CROSS JOIN LATERAL (SELECT count(*) AS newer FROM (SELECT 1 FROM revisions x
                             WHERE x.collection = i.collection AND x.item = i.item AND x.id >= ${part.hi} AND x.version IS NULL
                             LIMIT ${last}) z) nw
        CROSS JOIN LATERAL (SELECT q.id, row_number() OVER () AS rn FROM (SELECT id FROM ${p} x
                             WHERE x.collection = i.collection AND x.item = i.item AND x.id <= i.id AND x.version IS NULL
                             ORDER BY x.id DESC LIMIT ${last}) q) k
        WHERE k.rn <= ${last} - nw.newer
       ON CONFLICT DO NOTHING`,
    );
  }
  await client.query('ANALYZE vellum_kept');
  // one primary-key probe per kept id (OFFSET 0 keeps the planner from turning it into a scan of the whole partition
  // joined by hash, which it prefers from a few thousand ids on, and which reads every row of the month)
  const { rowCount } = await client.query(
    `INSERT INTO ${n} SELECT r.* FROM vellum_kept k CROSS JOIN LATERAL (SELECT * FROM ${p} x WHERE x.id = k.id OFFSET 0) r`,
  );
  await client.query('DROP TABLE vellum_kept');
  return rowCount ?? 0;
}

/**
 * `vellum_newest` (collection, item, id): each item of the partition with its newest id here. A skip scan of the
 * (collection, item, id) index, one descent per item, while the items are few against the rows; past a
 * twentieth of the rows, one pass over the index instead.
 */
async function newestPerItem(client: PoolClient, p: string, skipScanItems?: number): Promise<void> {
  const { rows } = await client.query<{ n: string }>(`SELECT reltuples::int8::text AS n FROM pg_class WHERE oid = $1::regclass`, [p]);
  const cap = skipScanItems ?? Math.max(10_000, Math.floor(Number(rows[0]?.n ?? 0) / 20));
  const skipped = await client.query(
    `CREATE TEMP TABLE vellum_newest ON COMMIT DROP AS
     WITH RECURSIVE t AS (
       (SELECT collection, item, id FROM ${p} ORDER BY collection DESC, item DESC, id DESC LIMIT 1)
       UNION ALL
       SELECT nx.collection, nx.item, nx.id FROM t CROSS JOIN LATERAL (
         SELECT x.collection, x.item, x.id FROM ${p} x WHERE (x.collection, x.item) < (t.collection, t.item)
          ORDER BY x.collection DESC, x.item DESC, x.id DESC LIMIT 1) nx
     )
     SELECT collection, item, id FROM t LIMIT ${cap + 1}`,
  );
  if ((skipped.rowCount ?? 0) <= cap) return;
  await client.query('TRUNCATE vellum_newest');
  await client.query(`INSERT INTO vellum_newest SELECT collection, item, max(id) FROM ${p} GROUP BY collection, item`);
}
