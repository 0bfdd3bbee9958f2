// Retention over monthly partitions (issue 18.3/18.4) against real PostgreSQL: a closed month older than the cutoff
// is pruned whole (its kept rows swapped in, or the partition dropped), the months holding the cutoff batch by
// batch, and the outcome is exactly the batch-only rule's: rows newer than the cutoff, each item's newest N, the
// activity a revision refers to. Parent links to pruned rows are cleared, counters stay exact, and archive → prune
// → import restores the same rows, a dropped month's partition included.
import { REVISION_BLOCK_SIZE } from '../src/data/record-counts.repository';
import { rollPartitions } from '../src/data/partition-roll';
import { PartitionBusyError, prunePartition } from '../src/data/partition-prune';
import { partitionsOf } from '../src/data/partitions.repository';
import { runRetention } from '../src/domain/retention';
import { itemEvent, type Harness } from './helpers';
import { digest, eachWithHarness, expectCountersExact, importAllArchives, rowsOf } from './retention-support';
import type { RecordableEvent } from '../src/data/event.writer';

const NOW = new Date('2026-04-20T00:00:00.000Z');
let h: Harness;
let archiveDir: string;
eachWithHarness(NOW, (harness, dir) => ((h = harness), (archiveDir = dir)));

const at = (month: number, day: number) => new Date(Date.UTC(2026, month - 1, day, 12)).toISOString();
const login = (id: string, when: string): RecordableEvent => ({
  kind: 'audit',
  v: 1,
  id,
  action: 'login',
  collection: 'vellum_users',
  item: 'u',
  actor: { user: 'u' },
  timestamp: when,
});

/**
 * January (the legacy partition, closed by February's roll): a/1 ×3, b/1 ×2 (its newest in January), c/1 ×2 and
 * p/1 (a parent of a March revision), a login. February (closed by March's roll): a/1 ×2, c/1 ×2 (10th and 25th),
 * a login (recorded after c/1's of the 25th). March (open): a/1, c/1, p/2 (child of p/1), a login. Each month's items written one event at a time.
 */
async function seedThreeMonths() {
  const write = async (events: RecordableEvent[]) => {
    for (const e of events) await h.writer.write([e]);
  };
  const parent = itemEvent({ collection: 'p', item: '1', action: 'create', data: { id: 1 }, at: at(1, 9) });
  await write([
    ...[2, 3, 4].map((d, i) => itemEvent({ collection: 'a', item: '1', data: { v: `jan${i}` }, at: at(1, d) })),
    ...[5, 6].map((d, i) => itemEvent({ collection: 'b', item: '1', data: { v: `jan${i}` }, at: at(1, d) })),
    ...[7, 8].map((d, i) => itemEvent({ collection: 'c', item: '1', data: { v: `jan${i}` }, at: at(1, d) })),
    parent,
    login('login-jan', at(1, 10)),
  ]);
  await rollPartitions(h.pool, { now: new Date(at(2, 1)), gap: 3 * REVISION_BLOCK_SIZE });
  await write([
    ...[3, 4].map((d, i) => itemEvent({ collection: 'a', item: '1', data: { v: `feb${i}` }, at: at(2, d) })),
    ...[10, 25].map((d, i) => itemEvent({ collection: 'c', item: '1', data: { v: `feb${i}` }, at: at(2, d) })),
    login('login-feb', at(2, 11)),
  ]);
  await rollPartitions(h.pool, { now: new Date(at(3, 1)), gap: 1000 });
  await write([
    itemEvent({ collection: 'a', item: '1', data: { v: 'mar' }, at: at(3, 2) }),
    itemEvent({ collection: 'c', item: '1', data: { v: 'mar' }, at: at(3, 2) }),
    itemEvent({ collection: 'p', item: '2', action: 'create', data: { id: 2 }, parent_event: parent.id, at: at(3, 3) }),
    login('login-mar', at(3, 4)),
  ]);
}

/** The ids the batch-only rule keeps: newer than the cutoff, or among the item's newest `keepLast`. */
async function expectedKept(cutoff: Date, keepLast: number): Promise<number[]> {
  const { rows } = await h.pool.query<{ id: string }>(
    `SELECT id FROM (SELECT id, timestamp, row_number() OVER (PARTITION BY collection, item ORDER BY id DESC) AS rn FROM revisions) x
      WHERE timestamp >= $1 OR rn <= $2 ORDER BY id`,
    [cutoff, keepLast],
  );
  return rows.map((r) => Number(r.id));
}
const ids = async (table: string) => (await h.pool.query<{ id: string }>(`SELECT id FROM ${table} ORDER BY id`)).rows.map((r) => Number(r.id));
const partitionNames = async (table: string) =>
  (
    await h.pool.query<{ n: string }>(
      `SELECT c.relname AS n FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = $1::regclass ORDER BY 1`,
      [table],
    )
  ).rows.map((r) => r.n);

it('prunes a closed month whole (kept rows swapped in), the rest batch by batch: the same rows as the batch rule, counters exact', async () => {
  await seedThreeMonths();
  const cutoff = new Date(at(2, 15)); // mid-February: January wholly older, February holds the cutoff
  const keep = await expectedKept(cutoff, 1);
  const activityBefore = await ids('activity');
  const report = await runRetention(
    h.pool,
    { keepLast: 1, batchSize: 2, revisionsMaxAgeMs: NOW.getTime() - cutoff.getTime(), activityMaxAgeMs: NOW.getTime() - cutoff.getTime() },
    { now: NOW },
  );
  expect(report.revisions?.partitions).toEqual(['revisions_legacy']);
  // February's newest activity (by id) is its login of the 11th: pruned whole too, its rows of the 25th kept
  expect(report.activity?.partitions).toEqual(['activity_legacy', 'activity_2026_02']);
  expect(await ids('revisions')).toEqual(keep);
  // January keeps b/1's and p/1's newest (their latest revisions): its partition is now the kept rows' table
  expect(await partitionNames('revisions')).toEqual(['revisions_2026_02', 'revisions_2026_03', 'revisions_legacy_kept']);
  const jan = await h.pool.query(`SELECT collection || '/' || item AS k FROM revisions_legacy_kept ORDER BY id`);
  expect(jan.rows.map((r) => r.k)).toEqual(['b/1', 'p/1']);
  // p/2 still has its parent (p/1 was kept); activity kept where a revision refers to it, and the February login
  const child = await h.pool.query(`SELECT parent FROM revisions WHERE collection = 'p' AND item = '2'`);
  expect(child.rows[0].parent).not.toBeNull();
  const referenced = await h.pool.query(`SELECT DISTINCT activity FROM revisions`);
  const activity = await h.pool.query<{ id: string; event_id: string }>(`SELECT id, event_id FROM activity ORDER BY id`);
  expect(activity.rows.filter((r) => r.event_id.startsWith('login')).map((r) => r.event_id)).toEqual(['login-mar']);
  expect(activity.rows.length).toBe(referenced.rows.length + 1);
  expect(activity.rows.length).toBeLessThan(activityBefore.length);
  await expectCountersExact(h.pool);
});

it('keeps each item’s newest N across partitions: a month keeps what its newer months do not cover (keepLast 4)', async () => {
  await seedThreeMonths();
  const cutoff = new Date(at(2, 15));
  const keep = await expectedKept(cutoff, 4);
  const report = await runRetention(h.pool, { keepLast: 4, batchSize: 2, revisionsMaxAgeMs: NOW.getTime() - cutoff.getTime() }, { now: NOW });
  expect(report.revisions?.partitions).toEqual(['revisions_legacy']);
  expect(await ids('revisions')).toEqual(keep);
  // January: a/1 and c/1 have 3 newer revisions each, so 1 of theirs stays; b/1's 2 and p/1's 1 stay
  const jan = await h.pool.query(`SELECT collection || '/' || item || ' ' || coalesce(data->>'v', '-') AS k FROM revisions_legacy_kept ORDER BY id`);
  expect(jan.rows.map((r) => r.k)).toEqual(['a/1 jan2', 'b/1 jan0', 'b/1 jan1', 'c/1 jan1', 'p/1 -']);
  await expectCountersExact(h.pool);
});

it('finds the same kept rows by one pass over the index as by the skip scan (many items against the rows)', async () => {
  await seedThreeMonths();
  const cutoff = new Date(at(2, 15));
  const client = await h.pool.connect();
  try {
    const part = (await partitionsOf(client, 'revisions')).find((p) => p.name === 'revisions_legacy')!;
    const expected = (await expectedKept(cutoff, 4)).filter((id) => id < part.hi!);
    const out = await prunePartition(
      client,
      'revisions',
      { ...part, hi: part.hi! },
      { cutoff, keepLast: 4, lockTimeoutMs: 100, lockAttempts: 5, skipScanItems: 1 },
    );
    expect(out.kept).toBe(expected.length);
    expect(await ids('revisions_legacy_kept')).toEqual(expected);
  } finally {
    client.release();
  }
  await expectCountersExact(h.pool);
});

it('drops a pruned partition a crash left detached but not dropped, at the next run', async () => {
  await seedThreeMonths();
  await h.pool.query(`CREATE TABLE revisions_2025_12_pruned (LIKE revisions)`); // what a crash after the commit leaves
  await h.pool.query(`CREATE TABLE revisions_2025_11_kept (LIKE revisions)`); // not a leftover of a commit: kept
  await runRetention(h.pool, { keepLast: 1, batchSize: 10, revisionsMaxAgeMs: 1000 * 86_400_000 }, { now: NOW });
  const left = await h.pool.query(`SELECT relname FROM pg_class WHERE relname IN ('revisions_2025_12_pruned', 'revisions_2025_11_kept')`);
  expect(left.rows).toEqual([{ relname: 'revisions_2025_11_kept' }]);
});

it('drops a month with nothing to keep, and archive → prune → import restores every row (the month gets a partition back)', async () => {
  await seedThreeMonths();
  const before = { revisions: digest(await rowsOf(h.pool, 'revisions')), activity: digest(await rowsOf(h.pool, 'activity')) };
  const maxAge = NOW.getTime() - new Date(at(3, 1)).getTime(); // everything before March
  const report = await runRetention(h.pool, { keepLast: 1, batchSize: 3, revisionsMaxAgeMs: maxAge, activityMaxAgeMs: maxAge, archiveDir }, { now: NOW });
  // February holds only rows of items with newer ones: its partition is dropped, not swapped
  expect(report.revisions?.partitions).toEqual(['revisions_legacy', 'revisions_2026_02']);
  expect(await partitionNames('revisions')).toEqual(['revisions_2026_03', 'revisions_legacy_kept']);
  expect(report.revisions?.archive?.rows).toBe(report.revisions?.pruned);
  expect(report.activity?.archive?.rows).toBe(report.activity?.pruned);
  await expectCountersExact(h.pool);

  await importAllArchives(h.pool, archiveDir, 2);
  expect((await partitionNames('revisions')).filter((n) => n.startsWith('revisions_restored_'))).toHaveLength(1);
  expect(digest(await rowsOf(h.pool, 'revisions'))).toBe(before.revisions);
  expect(digest(await rowsOf(h.pool, 'activity'))).toBe(before.activity);
  await expectCountersExact(h.pool);
});

it('clears the parent link of a revision whose parent is pruned, by a partition swap and by a batch', async () => {
  await seedThreeMonths();
  // March, open partition: p/3, its child p/4, then a newer p/3 and p/1 (so their first revisions are not their latest)
  const p3 = itemEvent({ collection: 'p', item: '3', action: 'create', data: { id: 3 }, at: at(3, 6) });
  for (const e of [
    p3,
    itemEvent({ collection: 'p', item: '4', action: 'create', data: { id: 4 }, parent_event: p3.id, at: at(3, 7) }),
    itemEvent({ collection: 'p', item: '3', data: { id: 3, v: 2 }, at: at(3, 9) }),
    itemEvent({ collection: 'p', item: '1', data: { id: 1, v: 2 }, at: at(3, 9) }),
  ])
    await h.writer.write([e]);
  const parents = async () =>
    Object.fromEntries(
      (await h.pool.query(`SELECT item, parent FROM revisions WHERE item IN ('2', '4') AND collection = 'p'`)).rows.map((r) => [
        r.item,
        r.parent === null ? null : 'set',
      ]),
    );
  expect(await parents()).toEqual({ 2: 'set', 4: 'set' });
  const report = await runRetention(h.pool, { keepLast: 1, batchSize: 2, revisionsMaxAgeMs: NOW.getTime() - new Date(at(3, 8)).getTime() }, { now: NOW });
  expect(report.revisions?.partitions).toEqual(['revisions_legacy', 'revisions_2026_02']);
  // p/1's January revision went with the swap, p/3's first with a batch of the open partition
  expect(await parents()).toEqual({ 2: null, 4: null });
  await expectCountersExact(h.pool);
});

it('gives way to a writer that waits for the partition it is pruning (no deadlock), then prunes it with the writer’s change', async () => {
  await seedThreeMonths();
  const cutoff = new Date(at(2, 15));
  const kept = Number((await h.pool.query(`SELECT max(id) AS id FROM revisions_legacy WHERE collection = 'b'`)).rows[0].id);
  const client = await h.pool.connect();
  const writer = await h.pool.connect();
  try {
    const part = (await partitionsOf(client, 'revisions')).find((p) => p.name === 'revisions_legacy')!;
    let updating: Promise<unknown> | undefined;
    const waiting = async () =>
      (await h.pool.query(`SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted AND relation = 'revisions_legacy'::regclass`)).rows[0].n > 0;
    const opts = {
      cutoff,
      keepLast: 1,
      lockTimeoutMs: 100,
      lockAttempts: 50,
      // runs while the prune holds the partition, before its swap: a writer's update of one of its rows starts
      onPruned: async () => {
        if (updating) return;
        updating = writer.query(`UPDATE revisions SET delta = '{"changed": true}' WHERE id = $1`, [kept]);
        while (!(await waiting())) await new Promise((r) => setTimeout(r, 10));
      },
    };
    const started = Date.now();
    await expect(prunePartition(client, 'revisions', { ...part, hi: part.hi! }, opts)).rejects.toBeInstanceOf(PartitionBusyError);
    expect(Date.now() - started).toBeLessThan(5000);
    await updating; // the writer went on
    const out = await prunePartition(client, 'revisions', { ...part, hi: part.hi! }, { ...opts, onPruned: undefined });
    expect(out).toMatchObject({ partition: 'revisions_legacy', kept: 2, lockAttempts: 1 });
    const row = await h.pool.query(`SELECT delta, tableoid::regclass::text AS p FROM revisions WHERE id = $1`, [kept]);
    expect(row.rows[0]).toEqual({ delta: { changed: true }, p: 'revisions_legacy_kept' });
  } finally {
    client.release();
    writer.release();
  }
  await expectCountersExact(h.pool);
});
