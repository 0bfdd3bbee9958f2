import type { ClientBase } from 'pg';

/** The tables partitioned by RANGE (id), one partition per month (migration 20261208000000_partitioned_history). */
export type PartitionedTable = 'activity' | 'revisions';
export const PARTITIONED_TABLES: readonly PartitionedTable[] = ['activity', 'revisions'];

/** One partition: the ids [lo, hi); null is MINVALUE for `lo`, MAXVALUE for `hi` (the open partition). */
export interface Partition {
  name: string;
  lo: number | null;
  hi: number | null;
}

const BOUND = /FROM \((?:'?(-?\d+)'?|MINVALUE)\) TO \((?:'?(-?\d+)'?|MAXVALUE)\)/;

/** A partition bound as PostgreSQL prints it (`FOR VALUES FROM ('1') TO (MAXVALUE)`). */
export function parseBound(name: string, bound: string): Partition {
  const m = BOUND.exec(bound);
  if (!m) throw new Error(`partition ${name}: unexpected bound ${bound}`);
  return { name, lo: m[1] === undefined ? null : Number(m[1]), hi: m[2] === undefined ? null : Number(m[2]) };
}

/** The partitions of `table`, in id order. */
export async function partitionsOf(db: ClientBase, table: PartitionedTable): Promise<Partition[]> {
  const { rows } = await db.query<{ name: string; bound: string }>(
    `SELECT c.relname AS name, pg_get_expr(c.relpartbound, c.oid) AS bound
       FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = $1::regclass`,
    [`public.${table}`],
  );
  return rows.map((r) => parseBound(r.name, r.bound)).sort((a, b) => (a.lo ?? -Infinity) - (b.lo ?? -Infinity));
}

/** The partition `FOR VALUES` clause of a range. */
export const boundSql = (lo: number | null, hi: number | null): string =>
  `FOR VALUES FROM (${lo ?? 'MINVALUE'}) TO (${hi ?? 'MAXVALUE'})`;

/** A CHECK that states the range (attaching a table that holds it skips the scan that would prove it). */
export const rangeCheckSql = (lo: number | null, hi: number | null, column = 'id'): string =>
  [lo === null ? null : `${column} >= ${lo}`, hi === null ? null : `${column} < ${hi}`].filter(Boolean).join(' AND ') || 'true';

/** The timestamp of a partition's newest row (by id), undefined when it is empty. */
export async function newestTimestamp(db: ClientBase, partition: string): Promise<Date | undefined> {
  const { rows } = await db.query<{ at: Date }>(`SELECT timestamp AS at FROM public.${quote(partition)} ORDER BY id DESC LIMIT 1`);
  return rows[0]?.at;
}

/** The last id the sequence handed out (its next one − 1: a sequence moved by setval(…, false) has handed out none). */
export async function lastId(db: ClientBase, table: PartitionedTable): Promise<number> {
  const { rows: named } = await db.query<{ seq: string }>(`SELECT pg_get_serial_sequence($1, 'id') AS seq`, [`public.${table}`]);
  const { rows } = await db.query<{ v: string; called: boolean }>(`SELECT last_value::text AS v, is_called AS called FROM ${named[0]!.seq}`);
  return Number(rows[0]!.v) - (rows[0]!.called ? 0 : 1);
}

/** Move the id sequence forward to `next` (the next id handed out); never backward. */
export async function advanceSequence(db: ClientBase, table: PartitionedTable, next: number): Promise<void> {
  if ((await lastId(db, table)) >= next) return;
  await db.query(`SELECT setval(pg_get_serial_sequence($1, 'id'), $2::int8, false)`, [`public.${table}`, next]);
}

/** The partition holding no ids yet for a range: a standalone table shaped like `table`, then attached. */
export async function createLike(db: ClientBase, table: PartitionedTable, name: string): Promise<void> {
  await db.query(`CREATE TABLE IF NOT EXISTS public.${quote(name)} (LIKE public.${table} INCLUDING DEFAULTS)`);
}

/**
 * Partitions for ids no partition holds (a pruned month's rows coming back from an archive): each such id gets a
 * partition spanning the gap it falls in, between the partitions around it.
 */
export async function coverIds(db: ClientBase, table: PartitionedTable, ids: readonly number[]): Promise<string[]> {
  const created: string[] = [];
  let parts = await partitionsOf(db, table);
  for (const id of [...new Set(ids)].sort((a, b) => a - b)) {
    if (parts.some((p) => (p.lo === null || p.lo <= id) && (p.hi === null || id < p.hi))) continue;
    const lo = Math.max(...parts.filter((p) => p.hi !== null && p.hi <= id).map((p) => p.hi!), -Infinity);
    const hi = Math.min(...parts.filter((p) => p.lo !== null && p.lo > id).map((p) => p.lo!), Infinity);
    const gap = { lo: Number.isFinite(lo) ? lo : null, hi: Number.isFinite(hi) ? hi : null };
    const name = `${table}_restored_${gap.lo ?? 'min'}`;
    await db.query(`CREATE TABLE public.${quote(name)} PARTITION OF public.${table} ${boundSql(gap.lo, gap.hi)}`);
    created.push(name);
    parts = await partitionsOf(db, table);
  }
  return created;
}

/** The months since 1970-01 of a date (UTC) and its `YYYY_MM` label (partition names). */
export function monthOf(at: Date): { index: number; label: string; start: Date } {
  const y = at.getUTCFullYear();
  const m = at.getUTCMonth();
  return { index: (y - 1970) * 12 + m, label: `${y}_${String(m + 1).padStart(2, '0')}`, start: new Date(Date.UTC(y, m, 1)) };
}

/** A quoted identifier. */
export const quote = (name: string): string => `"${name.replace(/"/g, '""')}"`;
