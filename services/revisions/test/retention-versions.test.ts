// Retention never prunes a save to a content version (issue 36): a revision with `version` set stays whatever its
// age and REVISIONS_KEEP_LAST, whether its month is pruned whole (kept rows copied forward before the partition is
// dropped or swapped) or batch by batch; the other revisions of the same items are pruned as before.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REVISION_BLOCK_SIZE } from '../src/data/record-counts.repository';
import { rollPartitions } from '../src/data/partition-roll';
import { runRetention } from '../src/domain/retention';
import { itemEvent, type Harness } from './helpers';
import { eachWithHarness, expectCountersExact, expectHeadsExact } from './retention-support';
import { MIGRATIONS_DIR } from '../src/start';
import { asOfRepository } from '../src/data/as-of.repository';

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

/**
 * An item whose newest revisions are saves to a version: REVISIONS_KEEP_LAST counts its live revisions only, so its
 * newest live state (what `?at=` and a compare with the live item read) is never pruned. b/1 and e/1: two live writes
 * in January, then saves only (February); c/1: a live write then a save, both in February before the cutoff.
 */
async function seedSavesNewest() {
  const write = async (...events: Parameters<typeof itemEvent>[0][]) => {
    for (const e of events) await h.writer.write([itemEvent(e)]);
  };
  await write(
    { collection: 'b', item: '1', data: { v: 'b-jan0' }, at: at(1, 2) },
    { collection: 'b', item: '1', data: { v: 'b-jan1' }, at: at(1, 3) },
    { collection: 'e', item: '1', data: { v: 'e-jan0' }, at: at(1, 2) },
    { collection: 'e', item: '1', data: { v: 'e-jan1' }, at: at(1, 3) },
  );
  await rollPartitions(h.pool, { now: new Date(at(2, 1)), gap: 3 * REVISION_BLOCK_SIZE });
  await write(
    { collection: 'b', item: '1', data: { v: 'b-draft' }, version: V, at: at(2, 2) },
    { collection: 'e', item: '1', data: { v: 'e-draft0' }, version: V, at: at(2, 2) },
    { collection: 'e', item: '1', data: { v: 'e-draft1' }, version: V, at: at(2, 2) },
    { collection: 'c', item: '1', data: { v: 'c-feb' }, at: at(2, 2) },
    { collection: 'c', item: '1', data: { v: 'c-draft' }, version: V, at: at(2, 3) },
  );
  await rollPartitions(h.pool, { now: new Date(at(3, 1)), gap: 1000 });
}

it.each([1, 2])('keeps each item newest %i live revisions when saves to a version are newer (months pruned whole)', async (keepLast) => {
  await seedSavesNewest();
  const cutoff = new Date(at(3, 1));
  const report = await runRetention(h.pool, { keepLast, batchSize: 2, revisionsMaxAgeMs: NOW.getTime() - cutoff.getTime() }, { now: NOW });
  expect(report.revisions?.partitions).toEqual(['revisions_legacy', 'revisions_2026_02']);
  const live = keepLast === 1 ? ['b/1 b-jan1', 'e/1 e-jan1'] : ['b/1 b-jan0', 'b/1 b-jan1', 'e/1 e-jan0', 'e/1 e-jan1'];
  expect((await kept()).sort()).toEqual([...live, 'b/1 b-draft', 'c/1 c-draft', 'c/1 c-feb', 'e/1 e-draft0', 'e/1 e-draft1'].sort());
  await expectCountersExact(h.pool);
});

it('keeps the newest live revision when a save to a version is newer (the month holding the cutoff, by batches)', async () => {
  await seedSavesNewest();
  const cutoff = new Date(Date.UTC(2026, 1, 3, 18)); // after every February write: February by batches
  await runRetention(h.pool, { keepLast: 1, batchSize: 1, revisionsMaxAgeMs: NOW.getTime() - cutoff.getTime() }, { now: NOW });
  expect(await kept()).toContain('c/1 c-feb');
  expect(await kept()).toContain('b/1 b-jan1');
  await expectCountersExact(h.pool);
});

it('the migration moves heads that name a save back to the live revision (heads as the earlier trigger left them)', async () => {
  await seedSavesNewest();
  // as before the migration: each item's head is its newest revision, save or not
  await h.pool.query(`UPDATE revision_heads h SET id = (SELECT max(id) FROM revisions r WHERE r.collection = h.collection AND r.item = h.item)`);
  await h.pool.query(`INSERT INTO revision_heads (collection, item, id) SELECT 'd', '1', max(id) FROM revisions WHERE version IS NOT NULL`);
  await h.pool.query(readFileSync(join(MIGRATIONS_DIR, '20261211000000_revision_heads_live', 'migration.sql'), 'utf8'));
  await expectHeadsExact(h.pool);
  expect((await h.pool.query(`SELECT count(*)::int AS n FROM revision_heads WHERE collection = 'd'`)).rows[0].n).toBe(0);
});

it('the live item a compare reads (the head) is the newest live revision, not a newer save to a version', async () => {
  await seedSavesNewest();
  expect((await asOfRepository.head(h.pool, 'c', '1'))?.data).toEqual({ v: 'c-feb' });
  expect((await asOfRepository.head(h.pool, 'b', '1'))?.data).toEqual({ v: 'b-jan1' });
});
