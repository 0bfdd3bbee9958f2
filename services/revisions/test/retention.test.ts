// Retention against real PostgreSQL: what is pruned and what stays (every item's newest REVISIONS_KEEP_LAST,
// activity still referred to), counters exact afterwards (the list's meta and deep offsets read them), one replica
// at a time, and archive → prune → import restoring the same rows.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { readArchive } from '../src/domain/archive-file';
import { runRetention, type RetentionPolicy } from '../src/domain/retention';
import { RETENTION_LOCK_KEY, scheduleRetention } from '../src/domain/retention.scheduler';
import { itemEvent, type Harness } from './helpers';
import { digest, eachWithHarness, expectCountersExact, importAllArchives, rowsOf } from './retention-support';
import { silentLogger } from '@vellum/testing';

const DAY = 86_400_000;
const NOW = new Date('2026-06-01T00:00:00.000Z');
const logger = silentLogger('retention-test');
let h: Harness;
let archiveDir: string;
eachWithHarness(NOW, (harness, dir) => ((h = harness), (archiveDir = dir)));

/** Items a/1 (6 revisions, 100…50 days old), a/2 (2, 90 and 80 days), b/9 (1, 200 days), c/1 (3 recent); logins 120 and 5 days old. */
async function seedHistory() {
  const at = (days: number) => new Date(NOW.getTime() - days * DAY).toISOString();
  const events = [
    ...[100, 90, 80, 70, 60, 50].map((d, i) => itemEvent({ collection: 'a', item: '1', data: { id: 1, v: i }, at: at(d) })),
    ...[90, 80].map((d, i) => itemEvent({ collection: 'a', item: '2', data: { id: 2, v: i }, at: at(d) })),
    itemEvent({ collection: 'b', item: '9', action: 'create', data: { id: 9 }, at: at(200) }),
    ...[3, 2, 1].map((d, i) => itemEvent({ collection: 'c', item: '1', data: { id: 1, v: i }, at: at(d) })),
  ];
  const audits = [120, 5].map((d, i) => ({
    kind: 'audit' as const,
    v: 1 as const,
    id: `login-${i}`,
    action: 'login' as const,
    collection: 'vellum_users',
    item: 'u',
    actor: { user: 'u' },
    timestamp: at(d),
  }));
  for (const e of [...events, ...audits]) await h.writer.write([e]); // one at a time: ids in time order
}

const revisionsPerItem = async () =>
  Object.fromEntries(
    (await h.pool.query(`SELECT collection || '/' || item AS k, count(*)::int AS n FROM revisions GROUP BY 1 ORDER BY 1`)).rows.map((r) => [r.k, r.n]),
  );

const policy = (p: Partial<RetentionPolicy>): RetentionPolicy => ({ keepLast: 1, batchSize: 2, ...p });

it('prunes revisions older than the retention but keeps each item’s newest N and its latest; counters stay exact', async () => {
  await seedHistory();
  const report = await runRetention(h.pool, policy({ revisionsMaxAgeMs: 75 * DAY, keepLast: 2 }), { now: NOW });
  // a/1: 100, 90 and 80 days old go; a/2's two are old but its newest two; b/9's only one is its latest
  expect(await revisionsPerItem()).toEqual({ 'a/1': 3, 'a/2': 2, 'b/9': 1, 'c/1': 3 });
  expect(report.revisions?.pruned).toBe(3);
  const kept = (await h.pool.query(`SELECT data->>'v' AS v FROM revisions WHERE collection = 'a' AND item = '1' ORDER BY id`)).rows.map((r) => r.v);
  expect(kept).toEqual(['3', '4', '5']);
  await expectCountersExact(h.pool);
  // keepLast 1: the 200-day-old only revision of b/9 is still its latest, and stays
  await runRetention(h.pool, policy({ revisionsMaxAgeMs: 1.5 * DAY, keepLast: 1 }), { now: NOW });
  expect(await revisionsPerItem()).toEqual({ 'a/1': 1, 'a/2': 1, 'b/9': 1, 'c/1': 1 });
  await expectCountersExact(h.pool);
});

it('prunes activity only when old and no revision refers to it', async () => {
  await seedHistory();
  const before = (await h.pool.query(`SELECT count(*)::int AS n FROM activity`)).rows[0].n;
  const first = await runRetention(h.pool, policy({ activityMaxAgeMs: 30 * DAY }), { now: NOW });
  expect(first.activity?.pruned).toBe(1); // the 120-day-old login; item activity is still referred to
  await runRetention(h.pool, policy({ revisionsMaxAgeMs: 30 * DAY, activityMaxAgeMs: 30 * DAY }), { now: NOW });
  const left = (await h.pool.query(`SELECT count(*)::int AS n FROM activity`)).rows[0].n;
  const revisions = (await h.pool.query(`SELECT count(*)::int AS n FROM revisions`)).rows[0].n;
  expect(left).toBe(revisions + 1); // one per remaining revision, and the 5-day-old login
  expect(left).toBeLessThan(before - 1);
  await expectCountersExact(h.pool);
});

it('archive → prune → import restores the same rows (checksums equal), counters exact again', async () => {
  await seedHistory();
  const before = { revisions: digest(await rowsOf(h.pool, 'revisions')), activity: digest(await rowsOf(h.pool, 'activity')) };
  const report = await runRetention(h.pool, policy({ revisionsMaxAgeMs: 30 * DAY, activityMaxAgeMs: 30 * DAY, archiveDir }), { now: NOW });
  expect(report.revisions?.archive).toMatchObject({ entity: 'revisions', rows: report.revisions?.pruned });
  expect(report.activity?.archive).toMatchObject({ entity: 'activity', rows: report.activity?.pruned });
  expect(digest(await rowsOf(h.pool, 'revisions'))).not.toBe(before.revisions);
  await importAllArchives(h.pool, archiveDir, 2);
  expect(digest(await rowsOf(h.pool, 'activity'))).toBe(before.activity);
  // parent links to pruned rows were cleared at the delete (ON DELETE SET NULL) and come back from the archive
  expect(digest(await rowsOf(h.pool, 'revisions'))).toBe(before.revisions);
  await expectCountersExact(h.pool);
});

it('a damaged archive is refused', async () => {
  await seedHistory();
  await runRetention(h.pool, policy({ revisionsMaxAgeMs: 30 * DAY, archiveDir }), { now: NOW });
  const [m] = readdirSync(archiveDir).filter((f) => f.endsWith('.manifest.json'));
  const file = path.join(archiveDir, m!);
  const { writeFileSync, readFileSync } = await import('node:fs');
  const manifest = JSON.parse(readFileSync(file, 'utf8'));
  writeFileSync(file, JSON.stringify({ ...manifest, sha256: '0'.repeat(64) }));
  await expect(readArchive(file)).rejects.toThrow(/does not match its manifest/);
});

it('one replica at a time: a run skips while another holds the lock', async () => {
  await seedHistory();
  const holder = await h.pool.connect();
  try {
    await holder.query('SELECT pg_advisory_lock($1::int8)', [RETENTION_LOCK_KEY.toString()]);
    const s = scheduleRetention({ pool: h.pool, policy: policy({ revisionsMaxAgeMs: 30 * DAY }), intervalMs: 3_600_000, schedule: false, logger });
    expect(await s.runNow()).toBeUndefined();
    await holder.query('SELECT pg_advisory_unlock($1::int8)', [RETENTION_LOCK_KEY.toString()]);
    expect((await s.runNow())?.revisions?.pruned).toBeGreaterThan(0);
    await s.stop();
  } finally {
    holder.release();
  }
});

it('the prune and import-archive commands (main.ts, as the image runs them) archive, prune and restore', async () => {
  const { spawnSync } = await import('node:child_process');
  await seedHistory();
  const before = digest(await rowsOf(h.pool, 'revisions'));
  const main = path.join(__dirname, '..', 'src', 'main.ts');
  const run = (args: string[], env: Record<string, string> = {}) =>
    spawnSync(process.execPath, ['--import', 'tsx', main, ...args], {
      env: { PATH: process.env.PATH ?? '', DATABASE_URL: h.db.url, ...env },
      encoding: 'utf8',
      timeout: 100_000, // each command starts a node process with tsx: ~3 s, far more on busy shared cores
    });
  expect(run(['prune']).status).toBe(2); // no retention configured: nothing to do, said so
  const pruned = run(['prune'], { REVISIONS_RETENTION: '30d', ACTIVITY_RETENTION: '30d', RETENTION_ARCHIVE_DIR: archiveDir });
  expect({ status: pruned.status, stderr: pruned.stderr }).toEqual({ status: 0, stderr: '' });
  expect(await revisionsPerItem()).toEqual({ 'a/1': 1, 'a/2': 1, 'b/9': 1, 'c/1': 1 });
  const manifests = readdirSync(archiveDir)
    .filter((f) => f.endsWith('.manifest.json'))
    .sort()
    .map((f) => path.join(archiveDir, f));
  const imported = run(['import-archive', ...manifests]);
  expect({ status: imported.status, stderr: imported.stderr }).toEqual({ status: 0, stderr: '' });
  expect(imported.stdout).toMatch(/import-archive: \d+ of \d+ revisions rows imported/);
  expect(digest(await rowsOf(h.pool, 'revisions'))).toBe(before);
  await expectCountersExact(h.pool);
}, 320_000);
