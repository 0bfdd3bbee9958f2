// Retention never prunes a save to a content version (issue 36): a revision with `version` set stays whatever its
// age and REVISIONS_KEEP_LAST, whether its month is pruned whole (kept rows copied forward before the partition is
// dropped or swapped) or batch by batch; the other revisions of the same items are pruned as before.
import { REVISION_BLOCK_SIZE } from '../src/data/record-counts.repository';
import { rollPartitions } from '../src/data/partition-roll';
import { runRetention } from '../src/domain/retention';
import { itemEvent, type Harness } from './helpers';
import { eachWithHarness, expectCountersExact } from './retention-support';

const NOW = new Date('2026-04-20T00:00:00.000Z');
let h: Harness;
eachWithHarness(NOW, (harness) => (h = harness));

const at = (month: number, day: number) => new Date(Date.UTC(2026, month - 1, day, 12)).toISOString();
const V = '6f1c1f5e-1d3a-4c55-9b7e-0a8f3c2d1e01';

/**
 * January (legacy partition): a/1 live ×2 with a save to version V between them, d/1 a save only then a live
 * write in March. February: a/1 live, a save of a/1 to V, a live. March (open): a/1 live, d/1 live.
 */
async function seed() {
  const write = async (...events: Parameters<typeof itemEvent>[0][]) => {
    for (const e of events) await h.writer.write([itemEvent(e)]);
  };
  await write(
    { collection: 'a', item: '1', data: { v: 'jan0' }, at: at(1, 2) },
    { collection: 'a', item: '1', data: { v: 'jan-draft' }, version: V, at: at(1, 3) },
    { collection: 'a', item: '1', data: { v: 'jan1' }, at: at(1, 4) },
    { collection: 'd', item: '1', data: { v: 'jan-draft' }, version: V, at: at(1, 5) },
  );
  await rollPartitions(h.pool, { now: new Date(at(2, 1)), gap: 3 * REVISION_BLOCK_SIZE });
  await write(
    { collection: 'a', item: '1', data: { v: 'feb0' }, at: at(2, 2) },
    { collection: 'a', item: '1', data: { v: 'feb-draft' }, version: V, at: at(2, 3) },
    { collection: 'a', item: '1', data: { v: 'feb1' }, at: at(2, 4) },
  );
  await rollPartitions(h.pool, { now: new Date(at(3, 1)), gap: 1000 });
  await write({ collection: 'a', item: '1', data: { v: 'mar' }, at: at(3, 2) }, { collection: 'd', item: '1', data: { v: 'mar' }, at: at(3, 3) });
}

const kept = async () =>
  (await h.pool.query<{ k: string }>(`SELECT collection || '/' || item || ' ' || (data->>'v') AS k FROM revisions ORDER BY id`)).rows.map((r) => r.k);

it('keeps every version save of a month pruned whole (copied forward with the kept rows), and prunes the rest', async () => {
  await seed();
  const cutoff = new Date(at(3, 1)); // January and February wholly older than the cutoff
  const report = await runRetention(h.pool, { keepLast: 1, batchSize: 2, revisionsMaxAgeMs: NOW.getTime() - cutoff.getTime() }, { now: NOW });
  expect(report.revisions?.partitions).toEqual(['revisions_legacy', 'revisions_2026_02']);
  expect(await kept()).toEqual(['a/1 jan-draft', 'd/1 jan-draft', 'a/1 feb-draft', 'a/1 mar', 'd/1 mar']);
  const versions = await h.pool.query(`SELECT count(*)::int AS n FROM revisions WHERE version = $1`, [V]);
  expect(versions.rows[0].n).toBe(3);
  // the activity a kept save refers to stays with it
  const orphans = await h.pool.query(`SELECT count(*)::int AS n FROM revisions r WHERE NOT EXISTS (SELECT 1 FROM activity a WHERE a.id = r.activity)`);
  expect(orphans.rows[0].n).toBe(0);
  await expectCountersExact(h.pool);
});

it('keeps version saves older than the cutoff in the month that holds it (February pruned by batches)', async () => {
  await seed();
  const cutoff = new Date(Date.UTC(2026, 1, 3, 18)); // February holds the cutoff: January whole, February by batches
  const report = await runRetention(h.pool, { keepLast: 1, batchSize: 1, revisionsMaxAgeMs: NOW.getTime() - cutoff.getTime() }, { now: NOW });
  expect(report.revisions?.partitions).toEqual(['revisions_legacy']);
  // February: feb0 pruned, the save of the 3rd (older than the cutoff) kept, feb1 newer than the cutoff
  expect(await kept()).toEqual(['a/1 jan-draft', 'd/1 jan-draft', 'a/1 feb-draft', 'a/1 feb1', 'a/1 mar', 'd/1 mar']);
  await expectCountersExact(h.pool);
});
