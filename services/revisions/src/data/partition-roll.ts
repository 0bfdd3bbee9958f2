import type { Pool, PoolClient } from 'pg';
import { inTransaction } from '@vellum/db';
import {
  PARTITIONED_TABLES,
  advanceSequence,
  boundSql,
  createLike,
  lastId,
  monthOf,
  partitionsOf,
  quote,
  type Partition,
  type PartitionedTable,
} from './partitions.repository';

/** pg_try_advisory_lock key: one replica rolls at a time ("vellroll"). */
export const ROLL_LOCK_KEY = 0x76656c6c_726f6c6cn;

/**
 * Ids left unused between a closed partition and the next. The open partition is closed at `hi` = the last id + the
 * gap with a CHECK validated while writers go on (no lock that blocks them); the ids they take meanwhile stay below
 * `hi`. Then the sequence jumps to `hi`. A million ids is minutes of writes at thousands per second.
 */
export const PARTITION_ID_GAP = 1_000_000;

export interface RollOptions {
  now?: Date;
  /** How long the swap waits for its lock before it gives up for this round (readers wait behind it meanwhile). */
  lockTimeoutMs?: number;
  gap?: number;
}

/** What a roll did per table: the partition it closed (at which id) and the one it opened. */
export type RollReport = Partial<Record<PartitionedTable, { closed: string; at: number; opened: string }>>;

/**
 * Closes each table's open partition once it holds rows of a past month and opens this month's, so a month's rows
 * sit in one partition (retention swaps or drops it whole). Safe on several replicas (advisory lock: the others skip);
 * an interrupted roll resumes where it stopped. Undefined when another replica holds the lock.
 */
export async function rollPartitions(pool: Pool, opts: RollOptions = {}): Promise<RollReport | undefined> {
  const client = await pool.connect();
  let done = false;
  try {
    const { rows } = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1::int8) AS ok', [ROLL_LOCK_KEY.toString()]);
    if (!rows[0]?.ok) {
      done = true;
      return undefined;
    }
    // every lock a roll takes is waited for this long at most (readers queue behind a waiting ALTER TABLE)
    await client.query(`SET lock_timeout = ${Math.max(1, Math.round(opts.lockTimeoutMs ?? 100))}`);
    try {
      const report: RollReport = {};
      for (const table of PARTITIONED_TABLES) {
        const rolled = await rollTable(client, table, opts);
        if (rolled) report[table] = rolled;
      }
      return report;
    } finally {
      await client.query('RESET lock_timeout');
      await client.query('SELECT pg_advisory_unlock($1::int8)', [ROLL_LOCK_KEY.toString()]);
      done = true;
    }
  } finally {
    // after a failure the session ends (its advisory lock and settings with it)
    client.release(!done);
  }
}

async function rollTable(client: PoolClient, table: PartitionedTable, opts: RollOptions) {
  const month = monthOf(opts.now ?? new Date());
  const open = (await partitionsOf(client, table)).find((p) => p.hi === null);
  if (!open || !(await holdsPastMonth(client, open, month))) return undefined;
  const next = `${table}_${month.label}`;
  const hi = await closingBound(client, table, open, opts.gap ?? PARTITION_ID_GAP);
  // the next partition, empty, with a CHECK that lets its attach skip the scan
  await createLike(client, table, next);
  await addCheck(client, next, `${next}_range`, `id >= ${hi}`);
  await inTransaction(client, async () => {
    await client.query(`ALTER TABLE public.${table} DETACH PARTITION public.${quote(open.name)}`);
    await client.query(`ALTER TABLE public.${table} ATTACH PARTITION public.${quote(open.name)} ${boundSql(open.lo, hi)}`);
    await client.query(`ALTER TABLE public.${table} ATTACH PARTITION public.${quote(next)} ${boundSql(hi, null)}`);
    await advanceSequence(client, table, hi);
  });
  return { closed: open.name, at: hi, opened: next };
}

/**
 * Whether the open partition must close: it was opened in a past month (its name says which), or it is the legacy
 * partition (the rows from before partitioning) and its first row is from a past month.
 */
async function holdsPastMonth(client: PoolClient, open: Partition, month: ReturnType<typeof monthOf>): Promise<boolean> {
  const opened = /_(\d{4}_\d{2})$/.exec(open.name)?.[1];
  if (opened !== undefined) return opened < month.label;
  const { rows } = await client.query<{ at: Date }>(`SELECT timestamp AS at FROM public.${quote(open.name)} ORDER BY id LIMIT 1`);
  return rows[0] !== undefined && rows[0].at < month.start;
}

/**
 * The id at which the open partition closes, proven by a validated CHECK (id < hi) on it: validating reads the
 * partition without blocking readers or writers. `hi` is a gap above both the sequence and the partition's highest
 * id (rows restored from an archive keep theirs). A bound left by an interrupted roll is reused unless the ids
 * have come within half a gap of it; one that rows already break (validation fails) is dropped, and the next
 * round starts over.
 */
async function closingBound(client: PoolClient, table: PartitionedTable, open: Partition, gap: number): Promise<number> {
  const name = `${open.name}_closing`;
  const p = `public.${quote(open.name)}`;
  const { rows } = await client.query<{ def: string }>(
    `SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conrelid = $1::regclass AND conname = $2`,
    [p, name],
  );
  const { rows: top } = await client.query<{ id: string | null }>(`SELECT max(id)::text AS id FROM ${p}`);
  const last = Math.max(await lastId(client, table), Number(top[0]?.id ?? 0), (open.lo ?? 0) - 1);
  const existing = rows[0] ? Number(/id < '?(\d+)/.exec(rows[0].def)?.[1]) : undefined;
  const hi = existing !== undefined && existing - last >= gap / 2 ? existing : last + gap;
  if (existing !== undefined && existing !== hi) await client.query(`ALTER TABLE ${p} DROP CONSTRAINT ${quote(name)}`);
  try {
    await addCheck(client, open.name, name, `id < ${hi}`);
  } catch (err) {
    // a row at or above the bound came in meanwhile: no bound is left behind to refuse the rows that follow
    if ((err as { code?: string }).code === '23514') await client.query(`ALTER TABLE ${p} DROP CONSTRAINT IF EXISTS ${quote(name)}`);
    throw err;
  }
  return hi;
}

/** ADD CONSTRAINT … NOT VALID (a short lock), then VALIDATE (reads the rows, blocking no one). */
async function addCheck(client: PoolClient, table: string, name: string, check: string): Promise<void> {
  const exists = await client.query(`SELECT 1 FROM pg_constraint WHERE conrelid = $1::regclass AND conname = $2`, [`public.${quote(table)}`, name]);
  if (exists.rowCount === 0) await client.query(`ALTER TABLE public.${quote(table)} ADD CONSTRAINT ${quote(name)} CHECK (${check}) NOT VALID`);
  await client.query(`ALTER TABLE public.${quote(table)} VALIDATE CONSTRAINT ${quote(name)}`);
}
