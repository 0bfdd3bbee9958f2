import type { Pool, PoolClient } from 'pg';
import type { Accountability } from '@vellum/http';
import { REVISION_BLOCK_SIZE } from '../src/data/record-counts.repository';
import { RecordsReader } from '../src/domain/records-reader';
import { rollPartitions } from '../src/data/partition-roll';
import { AccessRuleMap } from '@vellum/tokens';
import { access, createHarness, itemEvent, type Harness } from './helpers';

/**
 * Deep offsets ordered by id start from `revision_blocks` (counts per collection and block of ids). These tests
 * compare every such page with the plain OFFSET page read in the same snapshot, across block boundaries, empty
 * blocks, visibility and collection filters, and while writers insert concurrently.
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

const COLLECTIONS = ['a', 'b', 'c'];
const rules = AccessRuleMap.of({ 'r-ab': access('r-ab', { a: { read: ['x'] }, b: { read: ['*'] } }) });
const callers: Record<string, Accountability> = {
  admin: { user: 'u', role: 'r-admin', admin: true, app: true },
  ab: { user: 'u', role: 'r-ab', admin: false, app: true },
};

let seq = 0;
async function writeBatch(n: number): Promise<void> {
  const events = Array.from({ length: n }, () => {
    const i = ++seq;
    return itemEvent({
      collection: COLLECTIONS[(i * 7) % 3]!,
      item: String(i % 40),
      data: { x: i, y: -i },
      at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
    });
  });
  await h.writer.write(events);
}
/** Moves the id sequence on (new revisions land in a later block, leaving gaps and empty blocks). */
const jumpIds = (to: number) => h.pool.query(`SELECT setval('revisions_id_seq', $1::int8)`, [to]);

/** A reader that runs every statement on `client` and records the statements' text. */
function readerOn(client: PoolClient, deferredJoinOffset: number, texts: string[], mergeMaxCollections?: number): RecordsReader {
  const pool = {
    query: (q: { text: string } | string, values?: unknown[]) => {
      texts.push(typeof q === 'string' ? q : q.text);
      return client.query(q as string, values);
    },
  } as unknown as Pool;
  return new RecordsReader(pool, rules, { limitDefault: 100, deferredJoinOffset, mergeMaxCollections });
}

interface Case {
  who: keyof typeof callers;
  q: Record<string, unknown>;
}

/** Each case read twice in one REPEATABLE READ snapshot: through the blocks, and as a plain OFFSET. */
async function compare(cases: Case[]): Promise<number> {
  const client = await h.pool.connect();
  let seeks = 0;
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const seekTexts: string[] = [];
    const plainTexts: string[] = [];
    const viaBlocks = readerOn(client, 0, seekTexts);
    const plain = readerOn(client, Number.MAX_SAFE_INTEGER, plainTexts, 0);
    for (const c of cases) {
      const before = seekTexts.length;
      const a = await viaBlocks.list('revisions', callers[c.who], viaBlocks.parse(c.q));
      const b = await plain.list('revisions', callers[c.who], plain.parse(c.q));
      expect({ c, body: a }).toEqual({ c, body: b });
      if (seekTexts.slice(before).some((t) => t.includes('revision_blocks'))) seeks++;
    }
    expect(plainTexts.some((t) => t.includes('revision_blocks'))).toBe(false);
    await client.query('COMMIT');
  } finally {
    client.release();
  }
  return seeks;
}

async function blocksMatchRows(): Promise<void> {
  const q = (sql: string) =>
    h.pool.query<{ collection: string; block: string; count: string }>(sql).then((r) => r.rows.map((x) => `${x.collection}/${x.block}:${x.count}`));
  const fromRows = await q(`SELECT collection, id / ${REVISION_BLOCK_SIZE} AS block, count(*) AS count FROM revisions GROUP BY 1, 2 ORDER BY 1, 2`);
  const kept = await q('SELECT collection, block, count FROM revision_blocks WHERE count > 0 ORDER BY 1, 2');
  expect(kept).toEqual(fromRows);
}

describe('deep offsets from revision_blocks', () => {
  it('give exactly the plain OFFSET pages across blocks, gaps, visibility and collection filters', async () => {
    const B = REVISION_BLOCK_SIZE;
    await writeBatch(30); // block 0
    await jumpIds(B - 10);
    await writeBatch(25); // ends of block 0, start of block 1
    await jumpIds(4 * B + 3); // blocks 2 and 3 stay empty
    await writeBatch(40);
    await jumpIds(6 * B - 1);
    await writeBatch(1); // the last id of block 5
    await writeBatch(12); // block 6
    await blocksMatchRows();

    const { rows } = await h.pool.query<{ n: string }>('SELECT count(*) AS n FROM revisions');
    const total = Number(rows[0]!.n);
    expect(total).toBe(108);
    const cases: Case[] = [];
    for (const who of ['admin', 'ab'] as const)
      for (const sort of ['id', '-id'])
        for (const filter of [undefined, { collection: { _eq: 'c' } }, { collection: { _in: ['a', 'c'] } }])
          for (const offset of [0, 1, 29, 30, 31, 40, 54, 55, 56, 70, 94, 95, 96, 100, total - 1, total, total + 3])
            for (const limit of [1, 7, -1]) cases.push({ who, q: { sort, offset, limit, filter, fields: ['id', 'collection', 'data'] } });
    const seeks = await compare(cases);
    // every case went through the blocks (deferredJoinOffset 0: every offset counts as deep)
    expect(seeks).toBe(cases.length);

    // and the page contents are what they should be
    const reader = new RecordsReader(h.pool, rules, { limitDefault: 100, deferredJoinOffset: 0 });
    const all = (await h.pool.query<{ id: number }>('SELECT id FROM revisions ORDER BY id')).rows.map((r) => Number(r.id));
    const page = await reader.list('revisions', callers.admin!, reader.parse({ offset: 54, limit: 3, fields: ['id'] }));
    expect(page.data.map((r) => r.id)).toEqual(all.slice(54, 57));
    const back = await reader.list('revisions', callers.admin!, reader.parse({ offset: 12, limit: 2, sort: '-id', fields: ['id'] }));
    expect(back.data.map((r) => r.id)).toEqual([...all].reverse().slice(12, 14));
    const restricted = await reader.list('revisions', callers.ab!, reader.parse({ offset: 20, limit: 2, fields: ['id', 'data'] }));
    expect(restricted.data).toHaveLength(2);
    for (const r of restricted.data) expect(Object.keys(r.data as object).every((k) => k === 'x' || k === 'y')).toBe(true);
  });

  it('stay exact while writers insert concurrently (same-snapshot comparison), and the blocks match the rows after', async () => {
    let writing = true;
    const writers = Array.from({ length: 4 }, async (_, w) => {
      for (let i = 0; i < 12; i++) {
        await writeBatch(15 + w);
        if (w === 0 && i === 5) await jumpIds(9 * REVISION_BLOCK_SIZE + 17);
      }
    });
    const done = Promise.all(writers).finally(() => (writing = false));
    let rounds = 0;
    let seeks = 0;
    while (writing || rounds < 3) {
      rounds++;
      const cases: Case[] = [];
      for (const who of ['admin', 'ab'] as const)
        for (const sort of ['id', '-id'])
          for (const offset of [3, 50, 101, 160, 230, 400]) cases.push({ who, q: { sort, offset, limit: 9, fields: ['id', 'collection'] } });
      seeks += await compare(cases);
    }
    await done;
    expect(rounds).toBeGreaterThan(3);
    expect(seeks).toBe(rounds * 24);
    await blocksMatchRows();
  });
});

describe('across monthly partitions (issue 18.3)', () => {
  it('lists, counts and deep offsets stay exact when the rows sit in three partitions', async () => {
    const before = Number((await h.pool.query<{ n: string }>('SELECT count(*) AS n FROM revisions')).rows[0]!.n);
    // the rows so far are January's (their timestamps): February's roll closes the legacy partition
    const feb = await rollPartitions(h.pool, { now: new Date(Date.UTC(2026, 1, 3)), gap: 5000 });
    expect(feb?.revisions).toMatchObject({ closed: 'revisions_legacy', opened: 'revisions_2026_02' });
    await writeBatch(33);
    const mar = await rollPartitions(h.pool, { now: new Date(Date.UTC(2026, 2, 1)), gap: REVISION_BLOCK_SIZE + 5 });
    expect(mar?.revisions).toMatchObject({ closed: 'revisions_2026_02', opened: 'revisions_2026_03' });
    await writeBatch(21);
    // a roll in the same month does nothing
    expect(await rollPartitions(h.pool, { now: new Date(Date.UTC(2026, 2, 30)) })).toEqual({});

    const where = await h.pool.query<{ p: string; n: string; lo: string; hi: string }>(
      `SELECT tableoid::regclass::text AS p, count(*) AS n, min(id) AS lo, max(id) AS hi FROM revisions GROUP BY 1 ORDER BY min(id)`,
    );
    expect(where.rows.map((r) => [r.p, Number(r.n)])).toEqual([
      ['revisions_legacy', before],
      ['revisions_2026_02', 33],
      ['revisions_2026_03', 21],
    ]);
    expect(Number(where.rows[1]!.lo)).toBe(feb!.revisions!.at);
    expect(Number(where.rows[2]!.lo)).toBe(mar!.revisions!.at);
    await blocksMatchRows();

    const total = before + 54;
    const cases: Case[] = [];
    for (const who of ['admin', 'ab'] as const)
      for (const sort of ['id', '-id'])
        for (const filter of [undefined, { collection: { _in: ['a', 'c'] } }])
          for (const offset of [0, 5, before - 2, before, before + 30, before + 34, total - 3, total])
            for (const limit of [4, -1]) cases.push({ who, q: { sort, offset, limit, filter, fields: ['id', 'collection'] } });
    expect(await compare(cases)).toBe(cases.length);

    const reader = new RecordsReader(h.pool, rules, { limitDefault: 100, deferredJoinOffset: 1000 });
    const all = (await h.pool.query<{ id: string }>('SELECT id FROM revisions ORDER BY id')).rows.map((r) => Number(r.id));
    const newest = await reader.list('revisions', callers.admin!, reader.parse({ sort: '-id', limit: 30, fields: ['id'], meta: '*' }));
    expect(newest.data.map((r) => r.id)).toEqual([...all].reverse().slice(0, 30));
    expect(newest.meta).toEqual({ total_count: total, filter_count: total });
    const filtered = await reader.list('revisions', callers.ab!, reader.parse({ filter: { collection: { _eq: 'a' } }, limit: 1, meta: '*' }));
    const inA = Number((await h.pool.query<{ n: string }>(`SELECT count(*) AS n FROM revisions WHERE collection = 'a'`)).rows[0]!.n);
    expect(filtered.meta?.filter_count).toBe(inA);
  });
});
