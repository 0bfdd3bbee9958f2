import { setTimeout as sleep } from 'node:timers/promises';
import type { PoolClient } from 'pg';
import { inTransaction } from '@vellum/db';
import { REVISION_BLOCK_SIZE, addBlockDeltas, addCounts } from './record-counts.repository';
import { boundSql, createLike, quote, rangeCheckSql, type Partition, type PartitionedTable } from './partitions.repository';
import { copyKeptRows } from './partition-kept-rows';
import type { RetainedRow } from './retention.repository';

export interface PartitionPruneOptions {
  cutoff: Date;
  /** revisions: the newest revisions kept per item whatever their age (≥ 1). */
  keepLast: number;
  /** Each wait for the swap's lock (readers queue behind it while it waits); retried `lockAttempts` times. */
  lockTimeoutMs: number;
  lockAttempts: number;
  /** See copyKeptRows (tests force its other way with 1). */
  skipScanItems?: number;
  /** Receives the pruned rows (ascending ids, in batches) before the swap commits: the archive. */
  onPruned?: (rows: RetainedRow[]) => Promise<void>;
}

export interface PartitionPruneOutcome {
  partition: string;
  pruned: number;
  kept: number;
  /** Waits for the swap's lock it took (1: granted at the first). */
  lockAttempts: number;
}

const B = REVISION_BLOCK_SIZE;

/**
 * A writer waits for the partition this prune holds (an update of one of its rows) while the prune waits for the
 * writer: the prune gave way (rolled back) so the writer goes on. Try again shortly.
 */
export class PartitionBusyError extends Error {
  constructor(readonly partition: string) {
    super(`partition ${partition}: a writer waits for it; the prune gave way`);
  }
}

/**
 * Prunes a closed partition whole, in one transaction: the rows it keeps (newer than the cutoff; for revisions each
 * item's newest `keepLast`, for activity those a revision refers to) are copied into a new table with the same
 * indexes, which then takes its place (DETACH + ATTACH: a catalog change under a lock held for milliseconds); the
 * old table is dropped after the commit. No row is deleted one by one: the cost follows the rows kept, not the
 * rows pruned. Counters are corrected from revision_blocks (revisions) without reading the pruned rows.
 */
export async function prunePartition(
  client: PoolClient,
  table: PartitionedTable,
  part: Partition & { hi: number },
  o: PartitionPruneOptions,
): Promise<PartitionPruneOutcome> {
  const p = `public.${quote(part.name)}`;
  // the kept rows' table takes the partition's place under a name of its own (alternating on later prunes)
  const keptName = part.name.endsWith('_kept') ? part.name.slice(0, -5) : `${part.name.slice(0, 50)}_kept`;
  const n = `public.${quote(keptName)}`;
  const inRange = rangeCheckSql(part.lo, part.hi);
  // detached, the partition is renamed *_pruned: a crash before the drop leaves it to the next run (dropPrunedLeftovers)
  const gone = `${part.name.slice(0, 55)}_pruned`;
  const out = await inTransaction(client, async () => {
    // the partition stays as it is until the swap (readers go on; a writer updating one of its rows waits)
    await client.query(`LOCK TABLE ${p} IN SHARE MODE`);
    await client.query(`DROP TABLE IF EXISTS ${n}`);
    await createLike(client, table, keptName);
    const keptCount = await copyKeptRows(client, table, p, n, part, o.cutoff, o.keepLast, o.skipScanItems);
    await client.query(`ALTER TABLE ${n} ADD PRIMARY KEY (id)`);
    if (table === 'revisions') {
      // a kept revision, or one in another partition, whose parent is pruned loses the link (ON DELETE SET NULL)
      await client.query(`UPDATE ${n} c SET parent = NULL WHERE (${rangeCheckSql(part.lo, part.hi, 'c.parent')}) AND NOT EXISTS (SELECT 1 FROM ${n} k WHERE k.id = c.parent)`);
      await client.query(
        `UPDATE revisions c SET parent = NULL WHERE (${rangeCheckSql(part.lo, part.hi, 'c.parent')}) AND NOT (${rangeCheckSql(part.lo, part.hi, 'c.id')})
           AND NOT EXISTS (SELECT 1 FROM ${n} k WHERE k.id = c.parent)`,
      );
    }
    if (o.onPruned) await streamPruned(client, p, n, o.onPruned);
    const counts = await countPruned(client, table, p, n, part);
    await buildIndexesLike(client, table, n);
    await client.query(`ALTER TABLE ${n} ADD CONSTRAINT ${quote(`${keptName}_range`)} CHECK (${inRange})`);
    const lockAttempts = await swap(client, table, part, keptCount > 0 ? keptName : undefined, o);
    await applyCounts(client, table, counts);
    if (keptCount === 0) await client.query(`DROP TABLE ${n}`);
    await client.query(`ALTER TABLE ${p} RENAME TO ${quote(gone)}`);
    return { partition: part.name, pruned: counts.total, kept: keptCount, lockAttempts };
  });
  await client.query(`DROP TABLE public.${quote(gone)}`);
  return out;
}

/** The pruned rows (in `p`, not in `n`), in id order, batch by batch. */
async function streamPruned(client: PoolClient, p: string, n: string, onPruned: (rows: RetainedRow[]) => Promise<void>): Promise<void> {
  for (let after = -1; ; ) {
    const { rows } = await client.query<RetainedRow>(
      `SELECT r.id, r.collection, to_jsonb(r)::text AS json FROM ${p} r
        WHERE r.id > $1 AND NOT EXISTS (SELECT 1 FROM ${n} k WHERE k.id = r.id) ORDER BY r.id LIMIT 5000`,
      [after],
    );
    if (rows.length === 0) return;
    const batch = rows.map((r) => ({ ...r, id: Number(r.id) }));
    await onPruned(batch);
    after = batch[batch.length - 1]!.id;
  }
}

/**
 * What pruning takes out of the counters, read before the swap (no lock on the table is held meanwhile): per
 * collection (negative, for record_counts), and for revisions the whole blocks of the partition's range (their
 * revision_blocks rows go: their counts are the partition's rows) and the changes to the two edge blocks (shared
 * with the neighbours' ids, counted from the partition's rows) and to the kept rows' blocks. The pruned rows are
 * never read.
 */
async function countPruned(client: PoolClient, table: PartitionedTable, p: string, n: string, part: Partition & { hi: number }) {
  const byCollection = new Map<string, number>();
  const add = (collection: string, count: number) => byCollection.set(collection, (byCollection.get(collection) ?? 0) + count);
  const whole = { from: Math.ceil((part.lo ?? 0) / B), to: Math.floor(part.hi / B) };
  // an edge block can hold pruned and kept rows alike: one delta per (collection, block), summed
  const blocks = new Map<string, { collection: string; block: number; n: number }>();
  if (table === 'activity') {
    const { rows } = await client.query<{ c: string; n: string }>(
      `SELECT collection AS c, count(*) AS n FROM ${p} r WHERE NOT EXISTS (SELECT 1 FROM ${n} k WHERE k.id = r.id) GROUP BY 1`,
    );
    for (const r of rows) add(r.c, -Number(r.n));
  } else {
    const { rows } = await client.query<{ c: string; b: string | null; n: string }>(
      `SELECT collection AS c, NULL AS b, (-sum(count))::text AS n FROM revision_blocks WHERE block >= $1 AND block < $2 GROUP BY 1
       UNION ALL
       SELECT collection, (id / ${B})::text, (-count(*))::text FROM ${p} WHERE id < $1::int8 * ${B} OR id >= $2::int8 * ${B} GROUP BY 1, 2
       UNION ALL
       SELECT collection, (id / ${B})::text, count(*)::text FROM ${n} GROUP BY 1, 2`,
      [whole.from, whole.to],
    );
    for (const r of rows) {
      add(r.c, Number(r.n));
      if (r.b === null) continue;
      const b = blocks.get(`${r.c}\0${r.b}`);
      if (b) b.n += Number(r.n);
      else blocks.set(`${r.c}\0${r.b}`, { collection: r.c, block: Number(r.b), n: Number(r.n) });
    }
  }
  let total = 0;
  for (const v of byCollection.values()) total -= v;
  return { byCollection, blocks: [...blocks.values()], whole, total };
}

/** Counts the pruned rows out (after the swap: the counters' rows stay locked only until the commit). */
async function applyCounts(client: PoolClient, table: PartitionedTable, c: Awaited<ReturnType<typeof countPruned>>): Promise<void> {
  await addCounts(client, table, c.byCollection);
  if (table !== 'revisions') return;
  await client.query('DELETE FROM revision_blocks WHERE block >= $1 AND block < $2', [c.whole.from, c.whole.to]);
  await addBlockDeltas(client, c.blocks);
}

/** The parent's indexes on `n` (built before the swap, so attaching builds nothing under its lock). */
async function buildIndexesLike(client: PoolClient, table: PartitionedTable, n: string): Promise<void> {
  const { rows } = await client.query<{ def: string }>(
    `SELECT pg_get_indexdef(i.indexrelid) AS def FROM pg_index i WHERE i.indrelid = $1::regclass AND NOT i.indisprimary`,
    [`public.${table}`],
  );
  for (const { def } of rows) await client.query(def.replace(/^CREATE (UNIQUE )?INDEX \S+ ON ONLY public\.\S+/, `CREATE $1INDEX ON ${n}`));
}

/** DETACH the old partition and ATTACH the kept rows in its place, each lock waited for briefly, retried. */
async function swap(client: PoolClient, table: PartitionedTable, part: Partition & { hi: number }, kept: string | undefined, o: PartitionPruneOptions): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    await client.query('SAVEPOINT swap');
    try {
      await client.query(`SET LOCAL lock_timeout = ${Math.max(1, Math.round(o.lockTimeoutMs))}`);
      await client.query(`ALTER TABLE public.${table} DETACH PARTITION public.${quote(part.name)}`);
      if (kept) await client.query(`ALTER TABLE public.${table} ATTACH PARTITION public.${quote(kept)} ${boundSql(part.lo, part.hi)}`);
      await client.query('SET LOCAL lock_timeout = 0');
      await client.query('RELEASE SAVEPOINT swap');
      return attempt;
    } catch (err) {
      await client.query('ROLLBACK TO SAVEPOINT swap');
      if ((err as { code?: string }).code !== '55P03' || attempt >= o.lockAttempts) throw err;
      // a writer holding the table and waiting for the partition we hold would wait for ever: give way
      const { rows } = await client.query<{ b: boolean }>(
        'SELECT EXISTS (SELECT 1 FROM pg_stat_activity WHERE pg_backend_pid() = ANY (pg_blocking_pids(pid))) AS b',
      );
      if (rows[0]?.b) throw new PartitionBusyError(part.name);
      await sleep(Math.min(1000, 20 * attempt));
    }
  }
}

/** Drops the detached partitions a crashed prune left behind (committed, but not yet dropped). */
export async function dropPrunedLeftovers(client: PoolClient): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>(
    `SELECT relname AS name FROM pg_class
      WHERE relnamespace = 'public'::regnamespace AND relkind = 'r' AND NOT relispartition AND relname ~ '^(revisions|activity)_.*_pruned$'`,
  );
  for (const { name } of rows) await client.query(`DROP TABLE public.${quote(name)}`);
  return rows.map((r) => r.name);
}
