// Issue 41: only a nested write's revisions have a `parent` or a `parent_event`, so the indexes on them keep those
// rows alone (migration 20261213000000_parent_indexes_partial): recording a plain revision writes no entry in
// either, and every lookup by them (a value, a list of values, a range) still reads through them.
import { createHarness, itemEvent, type Harness } from './helpers';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

/** Pages of each partition's index attached to `index` (a partitioned index). */
async function pagesOf(index: string): Promise<number[]> {
  const { rows } = await h.pool.query<{ pages: number }>(
    `SELECT (pg_relation_size(inhrelid) / current_setting('block_size')::int)::int AS pages FROM pg_inherits WHERE inhparent = $1::regclass`,
    [index],
  );
  return rows.map((r) => r.pages);
}

/** The plan of `sql` with sequential scans off: which index, if any, can answer it. */
async function planOf(sql: string, values: unknown[]): Promise<string> {
  const client = await h.pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SET LOCAL enable_seqscan = off');
    await client.query('SET LOCAL enable_bitmapscan = off');
    const { rows } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN (COSTS OFF) ${sql}`, values);
    return rows.map((r) => r['QUERY PLAN']).join('\n');
  } finally {
    await client.query('ROLLBACK');
    client.release();
  }
}

it('a plain revision writes no entry in the parent indexes; a nested one is found through them', async () => {
  const plain = Array.from({ length: 2000 }, (_, i) =>
    itemEvent({ collection: 'plain', item: String(i), item_version: 1, data: { n: i }, at: '2026-03-02T10:00:00.000Z' }),
  );
  for (let i = 0; i < plain.length; i += 200) await h.writer.write(plain.slice(i, i + 200));
  // a full index would hold 2,000 entries here (6+ pages); a partial one only its metapage and an empty root
  for (const index of ['revisions_parent_idx', 'revisions_parent_event_idx']) {
    const pages = await pagesOf(index);
    expect(pages.length).toBeGreaterThan(0);
    expect(Math.max(...pages)).toBeLessThanOrEqual(2);
  }

  const parent = itemEvent({ collection: 'posts', item: '1', item_version: 1, data: { title: 'p' }, at: '2026-03-02T11:00:00.000Z' });
  const child = itemEvent({
    collection: 'comments',
    item: '9',
    item_version: 1,
    data: { body: 'c' },
    parent_event: parent.id,
    at: '2026-03-02T11:00:00.000Z',
  });
  await h.writer.write([parent, child]);
  const { rows } = await h.pool.query<{ id: string; parent: string | null }>(`SELECT c.id::text, c.parent::text FROM revisions c WHERE c.parent_event = $1`, [
    parent.id,
  ]);
  const parentId = (await h.pool.query<{ id: string }>(`SELECT id::text FROM revisions WHERE event_id = $1`, [parent.id])).rows[0]!.id;
  expect(rows).toEqual([{ id: expect.any(String), parent: parentId }]);

  // each way the service looks these columns up still reads the index (the value implies IS NOT NULL)
  expect(await planOf('SELECT id FROM revisions WHERE parent = $1', [parentId])).toMatch(/revisions_\w*parent_idx/);
  expect(await planOf('SELECT id FROM revisions WHERE parent IN (SELECT unnest($1::int8[]))', [[parentId]])).toMatch(/revisions_\w*parent_idx/);
  expect(await planOf('SELECT id FROM revisions WHERE parent >= $1 AND parent < $2', [1, 100])).toMatch(/revisions_\w*parent_idx/);
  expect(await planOf('SELECT id FROM revisions WHERE parent_event = $1', [parent.id])).toMatch(/revisions_\w*parent_event_idx/);
  expect(await planOf('SELECT id FROM revisions WHERE parent_event = ANY ($1::text[])', [[parent.id]])).toMatch(/revisions_\w*parent_event_idx/);
});
