import { asOfRepository } from '../src/data/as-of.repository';
import { rollPartitions } from '../src/data/partition-roll';
import { createHarness, itemEvent, recordingPool, type Harness } from './helpers';

// One item as it was (`?at=`) over monthly partitions: the newest revision at or before the time, by time then id,
// wherever it sits — in an older partition than the time's month, across a partition boundary, or recorded late
// (an old time in the newest partition). Random histories are checked against every row read back.

/** The plan's nodes, depth first. */
const nodes = (n: Record<string, unknown>): Record<string, unknown>[] => [n, ...((n['Plans'] as Record<string, unknown>[] | undefined) ?? []).flatMap(nodes)];

const day = (month: number, d: number, h = 0) => new Date(Date.UTC(2026, month, d, h)).toISOString();

function prng(seed: number) {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

describe('an item as it was, over monthly partitions', () => {
  let h: Harness;
  const write = (item: string, at: string, n: number, version?: string) =>
    h.writer.write([itemEvent({ collection: 'c', item, at, data: { id: item, n }, ...(version ? { version } : {}) })]);
  const stateAt = async (item: string, at: string) => {
    const row = await asOfRepository.stateAt(h.pool, 'c', item, new Date(at));
    return row && { n: (row.data as { n: number }).n, at: row.timestamp.toISOString() };
  };
  const roll = async (month: number) => {
    const r = await rollPartitions(h.pool, { now: new Date(Date.UTC(2026, month, 1)), gap: 1000, lockTimeoutMs: 2000 });
    expect(r?.revisions).toBeDefined();
  };

  beforeAll(async () => {
    h = await createHarness();
    // January (the legacy partition, closed on Feb 1)
    await write('old', day(0, 3), 1);
    await write('a', day(0, 5), 1);
    await write('a', day(0, 20), 2);
    await write('tie', day(0, 31, 12), 1);
    await roll(1);
    // February
    await write('a', day(1, 10), 3);
    await write('a', day(1, 12), 99, 'draft'); // a save to a content version: never a state
    await write('tie', day(0, 31, 12), 2); // the same time as January's, a higher id
    await roll(2);
    // March: only a late revision of `a` (recorded now, its time in January)
    await write('a', day(0, 25), 4);
    await write('b', day(2, 5), 1);
  });
  afterAll(() => h.close());

  it('lays the revisions out over three partitions', async () => {
    const { rows } = await h.pool.query<{ p: string; n: number }>(
      `SELECT tableoid::regclass::text AS p, count(*)::int AS n FROM revisions GROUP BY 1 ORDER BY min(id)`,
    );
    expect(rows).toEqual([
      { p: 'revisions_legacy', n: 4 },
      { p: 'revisions_2026_02', n: 3 },
      { p: 'revisions_2026_03', n: 2 },
    ]);
  });

  it('finds the revision in an older partition when the partition of the time holds none of the item', async () => {
    expect(await stateAt('old', day(2, 15))).toEqual({ n: 1, at: day(0, 3) });
    expect(await stateAt('a', day(2, 15))).toEqual({ n: 3, at: day(1, 10) }); // March holds only a January time
    expect(await stateAt('old', day(0, 2))).toBeUndefined();
  });

  it('answers by time across a partition boundary, a late revision in the newest partition included', async () => {
    expect(await stateAt('a', day(0, 22))).toEqual({ n: 2, at: day(0, 20) });
    expect(await stateAt('a', day(0, 31))).toEqual({ n: 4, at: day(0, 25) }); // recorded in March, its time in January
    expect(await stateAt('a', day(1, 10))).toEqual({ n: 3, at: day(1, 10) }); // at the time itself
    expect(await stateAt('a', day(1, 13))).toEqual({ n: 3, at: day(1, 10) }); // the draft of Feb 12 is skipped
    expect(await stateAt('tie', day(1, 1))).toEqual({ n: 2, at: day(0, 31, 12) }); // same time: the higher id
  });

  it.each(['auto', 'force_generic_plan'])('reads one entry and one row per partition, in the order of the index (plan cache mode %s)', async (mode) => {
    await h.pool.query('ANALYZE revisions');
    const client = await h.pool.connect();
    try {
      const seen: { text: string; values: unknown[] }[] = [];
      await asOfRepository.stateAt(
        recordingPool(client, (q) => seen.push(q)),
        'c',
        'a',
        new Date(day(2, 15)),
      );
      await client.query(`SET plan_cache_mode = ${mode}`);
      await client.query(`PREPARE state_at(text, text, timestamptz) AS ${seen[0]!.text}`);
      const values = seen[0]!.values.map((v) => client.escapeLiteral(v instanceof Date ? v.toISOString() : String(v)));
      const plan = nodes((await client.query(`EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE state_at(${values.join(', ')})`)).rows[0]['QUERY PLAN'][0].Plan);
      const { rows } = await client.query<{ name: string }>(
        `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'revisions_item_state_idx'::regclass`,
      );
      const scans = plan.filter((n) => typeof n['Relation Name'] === 'string');
      expect(scans.map((n) => n['Relation Name']).sort()).toEqual(['revisions_2026_02', 'revisions_2026_03', 'revisions_legacy']);
      expect(scans.every((n) => rows.some((r) => r.name === n['Index Name']))).toBe(true);
      expect(scans.every((n) => Number(n['Actual Rows']) <= 1 && !n['Rows Removed by Filter'])).toBe(true);
      expect(plan.filter((n) => /Sort/.test(String(n['Node Type'])))).toEqual([]);
    } finally {
      await client.query('DEALLOCATE state_at');
      await client.query('RESET plan_cache_mode');
      client.release();
    }
  });

  it('answers as every row read back does, for random histories and times', async () => {
    const rnd = prng(37);
    const items = Array.from({ length: 6 }, (_, i) => `r${i}`);
    const randomTime = () => new Date(Date.UTC(2026, 0, 1) + Math.floor(rnd() * 100) * 86_400_000 + Math.floor(rnd() * 3) * 3_600_000);
    for (const month of [3, 4]) {
      for (let i = 0; i < 40; i++) await write(items[Math.floor(rnd() * items.length)]!, randomTime().toISOString(), 1000 + i, rnd() < 0.1 ? 'v1' : undefined);
      await roll(month);
    }
    const { rows } = await h.pool.query<{ id: string; item: string; timestamp: Date; version: string | null }>(
      `SELECT id, item, timestamp, version FROM revisions WHERE collection = 'c'`,
    );
    for (let i = 0; i < 200; i++) {
      const item = items[Math.floor(rnd() * items.length)]!;
      const at = randomTime();
      const expected = rows
        .filter((r) => r.item === item && r.version === null && r.timestamp <= at)
        .sort((x, y) => y.timestamp.getTime() - x.timestamp.getTime() || Number(y.id) - Number(x.id))[0];
      const got = await asOfRepository.stateAt(h.pool, 'c', item, at);
      expect(got && String(got.id)).toEqual(expected && String(expected.id));
    }
  });
});
