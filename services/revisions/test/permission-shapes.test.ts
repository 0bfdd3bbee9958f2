import type { PoolClient } from 'pg';
import type { Accountability } from '@vellum/http';
import { AccessRuleMap } from '@vellum/tokens';
import { REVISION_BLOCK_SIZE } from '../src/data/record-counts.repository';
import { RecordsReader } from '../src/domain/records-reader';
import { access, createHarness, itemEvent, recordingPool, type Harness } from './helpers';

/**
 * Issue 18.1: a deep page of a role reading a few collections reads them per collection over the (collection, id)
 * index and merges the keys (PlanOptions.partitions), from revision_blocks. Every page, cursor and count must be what
 * the plain SQL (the row filter over the primary key, plain OFFSET) gives, read in the same snapshot — for roles of
 * one, two and four collections (merged), six (not merged), field-restricted ones, none, and with query filters
 * (where the merge does not apply).
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

const rules = AccessRuleMap.of({
  'r-rare': access('r-rare', { rare: { read: ['*'] } }),
  'r-new': access('r-new', { new: { read: ['x'] } }),
  'r-ab': access('r-ab', { a: { read: ['x'] }, b: { read: ['*'] } }),
  'r-four': access('r-four', { a: { read: ['*'] }, b: { read: ['y'] }, c: { read: ['*'] }, rare: { read: ['x'] } }),
  'r-six': access('r-six', { a: { read: ['*'] }, b: { read: ['*'] }, c: { read: ['x'] }, d: { read: ['*'] }, e: { read: ['*'] }, new: { read: ['*'] } }),
  'r-none': access('r-none', {}),
});
const who = (role: string): Accountability => ({ user: 'u', role, admin: role === 'r-admin', app: true });
/** The merged keys' statement (one branch per collection, `UNION ALL` between them). */
const MERGED = ') AS u ORDER BY "_d"';
const ROLES = ['r-admin', 'r-rare', 'r-new', 'r-ab', 'r-four', 'r-six', 'r-none'];

let seq = 0;
async function write(collection: (i: number) => string, n: number): Promise<void> {
  const events = Array.from({ length: n }, () => {
    const i = ++seq;
    return itemEvent({
      collection: collection(i),
      item: String(i % 30),
      data: { x: i, y: -i, z: 'z' },
      at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
    });
  });
  await h.writer.write(events);
}
const jumpIds = (to: number) => h.pool.query(`SELECT setval('revisions_id_seq', $1::int8)`, [to]);

/** A reader that runs every statement on `client` and records the statements' text. */
function readerOn(client: PoolClient, texts: string[], limits: { deferredJoinOffset: number; mergeMaxCollections?: number }): RecordsReader {
  return new RecordsReader(
    recordingPool(client, (q) => texts.push(q.text)),
    rules,
    { limitDefault: 100, ...limits },
  );
}

describe('every permission shape, merged per collection, answers as the plain SQL', () => {
  beforeAll(async () => {
    const bulk = ['a', 'b', 'c', 'd', 'e', 'f'];
    await write(() => 'rare', 3); // the oldest ids
    await write((i) => bulk[(i * 7) % 6]!, 60);
    await jumpIds(2 * REVISION_BLOCK_SIZE - 5); // an empty block, then a block boundary
    await write((i) => bulk[(i * 5) % 6]!, 90);
    await write(() => 'rare', 1);
    await jumpIds(4 * REVISION_BLOCK_SIZE + 1);
    await write((i) => bulk[i % 6]!, 40);
    await write(() => 'new', 4); // the newest ids
  });

  it('gives the same rows, order, cursors and counts for lists, deep offsets and cursors', async () => {
    const client = await h.pool.connect();
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const fastTexts: string[] = [];
      const plainTexts: string[] = [];
      const readers = [readerOn(client, fastTexts, { deferredJoinOffset: 0 }), readerOn(client, fastTexts, { deferredJoinOffset: 1000 })];
      const plain = readerOn(client, plainTexts, { deferredJoinOffset: Number.MAX_SAFE_INTEGER, mergeMaxCollections: 0 });
      const { rows } = await client.query<{ n: string }>('SELECT count(*) AS n FROM revisions');
      const total = Number(rows[0]!.n);
      expect(total).toBe(198);
      let cases = 0;
      let merged = 0;
      const fields = ['id', 'collection', 'item', 'data', 'delta'];
      for (const role of ROLES)
        for (const sort of ['id', '-id'])
          for (const filter of [undefined, { collection: { _eq: 'a' } }, { item: { _eq: '3' } }])
            for (const offset of [0, 1, 2, 3, 4, 24, 25, 60, 100, 150, total - 1, total])
              for (const limit of [1, 7, 25]) {
                const q = { sort, offset, limit, filter, fields, meta: 'total_count,filter_count' };
                const expected = await plain.list('revisions', who(role), plain.parse(q), { withCursor: true });
                for (const reader of readers) {
                  const before = fastTexts.length;
                  const got = await reader.list('revisions', who(role), reader.parse(q), { withCursor: true });
                  expect({ role, q, got }).toEqual({ role, q, got: expected });
                  cases++;
                  if (fastTexts.slice(before).some((t) => t.includes(MERGED))) merged++;
                  // the next page by cursor, too
                  const next = expected.meta?.next_cursor;
                  if (typeof next === 'string' && offset < 5) {
                    const qn = { sort, limit, filter, fields, after: next };
                    const want = await plain.list('revisions', who(role), plain.parse(qn), { withCursor: true });
                    const b = fastTexts.length;
                    expect({ role, qn, got: await reader.list('revisions', who(role), reader.parse(qn), { withCursor: true }) }).toEqual({
                      role,
                      qn,
                      got: want,
                    });
                    if (fastTexts.slice(b).some((t) => t.includes(MERGED))) merged++;
                  }
                }
              }
      expect(plainTexts.some((t) => t.includes(MERGED))).toBe(false);
      // merged: the deep pages (the reader with deferredJoinOffset 0) of the roles of one to four collections,
      // without a filter (4 roles × 2 sorts × 12 offsets × 3 limits, and their cursor pages); never for admin, six
      // collections, none, with a filter, or a shallow page (the reader with deferredJoinOffset 1000)
      expect(merged).toBeGreaterThanOrEqual(4 * 2 * 12 * 3);
      expect(cases).toBe(ROLES.length * 2 * 3 * 12 * 3 * 2);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    // thousands of statements: 8–12 s in CI, 4× that when the shared cores are busy (it once passed 30 s)
  }, 120_000);

  it('reads the rare oldest collection without the others: merged, index only, and field-restricted values reduced', async () => {
    const reader = new RecordsReader(h.pool, rules, { limitDefault: 100, deferredJoinOffset: 0 });
    const rare = await reader.list('revisions', who('r-rare'), reader.parse({ sort: '-id', limit: 25, fields: ['id', 'collection'], meta: 'total_count' }));
    const ids = (await h.pool.query<{ id: string }>(`SELECT id FROM revisions WHERE collection = 'rare' ORDER BY id DESC`)).rows.map((r) => Number(r.id));
    expect(rare.data.map((r) => r.id)).toEqual(ids);
    expect(rare.meta).toEqual({ total_count: 4 });
    const sql = reader.plan('revisions', who('r-rare'), reader.parse({ sort: '-id', limit: 25 })).plan.list();
    expect(sql.text).toContain(MERGED);
    const newest = await reader.list('revisions', who('r-new'), reader.parse({ sort: '-id', limit: 2, fields: ['id', 'data'] }));
    expect(newest.data.map((r) => r.data)).toEqual([{ x: seq }, { x: seq - 1 }]);
  });
});
