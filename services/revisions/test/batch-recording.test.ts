import { Client } from 'pg';
import type { ItemChangeEvent } from '@vellum/contracts';
import { createTestDatabase, type TestDatabase } from '@vellum/testing';
import { EventWriter, type RecordableEvent } from '../src/data/event.writer';
import { createPool } from '../src/data/pool';
import { MIGRATIONS_DIR } from '../src/start';

// Issue 41: the writer records each item's first change of a batch in one statement (record-in-order.ts). Fed the
// same batches, it must leave exactly what the per-event statements leave: every revision (version, action, data,
// delta, computed or not, parent), activity, the counters and the id blocks' totals, and the parked changes —
// with changes early, late, duplicated (in a batch and across batches), deleted, without delta, with a parent,
// unversioned, and audit events among them.

const ITEMS = 6;
const VERSIONS = 12;

function rng(seed: number) {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

/** Every change of ITEMS items over two collections, in version order per item. */
function changes(): RecordableEvent[] {
  const out: RecordableEvent[] = [];
  const at = Date.parse('2026-02-01T00:00:00Z');
  for (let i = 0; i < ITEMS; i++) {
    const collection = i % 2 ? 'odd' : 'even';
    for (let v = 1; v <= VERSIONS; v++) {
      const deleted = v === VERSIONS && i % 3 === 0;
      const data = deleted ? null : { id: i, n: v, tag: `t${v % 3}` };
      const e: ItemChangeEvent = {
        v: 1,
        id: `e-${i}-${v}`,
        collection,
        item: String(i),
        action: v === 1 ? 'create' : deleted ? 'delete' : 'update',
        data,
        ...(v % 4 === 0 || deleted ? {} : { delta: v === 1 ? data : { n: v } }),
        // a nested write's children: parents recorded earlier, in the same batch, or later
        ...(v === 5 && i === 1 ? { parent_event: 'e-0-3' } : {}),
        ...(v === 1 && i > 0 ? { parent_event: `e-${i - 1}-1` } : {}),
        ...(v === 2 && i < ITEMS - 1 ? { parent_event: `e-${i + 1}-2` } : {}),
        actor: { user: null, ip: '10.0.0.1', user_agent: 'ua', origin: null },
        timestamp: new Date(at + v * 1000 + i).toISOString(),
        item_version: v,
      };
      out.push({ ...e, kind: 'item' });
    }
  }
  // unversioned (ordered by time) and audit events among them
  out.push({
    v: 1,
    id: 'u-1',
    kind: 'item',
    collection: 'vellum_users',
    item: 'u1',
    action: 'create',
    data: { id: 'u1' },
    actor: { user: null },
    timestamp: new Date(at).toISOString(),
  });
  out.push({
    v: 1,
    id: 'u-2',
    kind: 'item',
    collection: 'vellum_users',
    item: 'u1',
    action: 'update',
    data: { id: 'u1', x: 1 },
    actor: { user: null },
    timestamp: new Date(at + 5).toISOString(),
  });
  out.push({
    v: 1,
    id: 'a-1',
    kind: 'audit',
    collection: 'vellum_users',
    item: 'u1',
    action: 'login',
    actor: { user: 'u1' },
    timestamp: new Date(at).toISOString(),
  });
  return out;
}

/** The changes in a shuffled arrival order (within a window, so some come early and some late), some twice, cut into batches. */
function batches(seed: number): RecordableEvent[][] {
  const r = rng(seed);
  const all = changes();
  const arrival = all
    .map((e, i) => ({ e, at: i + r() * 14 }))
    .sort((a, b) => a.at - b.at)
    .map((x) => x.e);
  for (let k = 0; k < 8; k++) arrival.splice(Math.floor(r() * arrival.length), 0, all[Math.floor(r() * all.length)]!);
  const out: RecordableEvent[][] = [];
  for (let i = 0; i < arrival.length;) {
    const n = 1 + Math.floor(r() * 9);
    out.push(arrival.slice(i, i + n));
    i += n;
  }
  return out;
}

/** What the history holds, independent of ids across items. */
async function state(sql: Client) {
  const q = async (text: string) => (await sql.query(text)).rows;
  return {
    revisions:
      await q(`SELECT r.collection, r.item, r.item_version, a.action, r.data, r.delta, r.delta_computed, r.event_id, p.event_id AS parent_event_of_parent, r.parent_event
                          FROM revisions r JOIN activity a ON a.id = r.activity LEFT JOIN revisions p ON p.id = r.parent
                         ORDER BY r.collection, r.item, r.id`),
    activity: await q(`SELECT collection, item, action, event_id, "user", ip, user_agent FROM activity ORDER BY event_id`),
    counts: await q(`SELECT entity, collection, count FROM record_counts WHERE count <> 0 ORDER BY 1, 2`),
    blocks: await q(`SELECT collection, sum(count)::int AS n FROM revision_blocks GROUP BY 1 ORDER BY 1`),
    blocksExact: await q(
      `SELECT (SELECT count(*) FROM revision_blocks b WHERE b.count <> (SELECT count(*) FROM revisions r WHERE r.collection = b.collection AND r.id / 4096 = b.block)) AS wrong`,
    ),
    parked: await q(`SELECT event_id FROM pending_item_events ORDER BY 1`),
  };
}

describe('one statement per batch records what the per-event statements record', () => {
  const dbs: TestDatabase[] = [];
  afterAll(async () => {
    for (const d of dbs) await d.drop();
  });

  for (const seed of [1, 2, 3]) {
    it(`batches of seed ${seed}: same revisions, activity, counters, blocks and parked changes`, async () => {
      const results = [];
      const outcomes: string[][] = [];
      for (const inOrder of [false, true]) {
        const db = await createTestDatabase({ migrationsDir: MIGRATIONS_DIR });
        dbs.push(db);
        const pool = createPool(db.url, 2);
        const writer = new EventWriter(pool, { inOrder });
        const got: string[] = [];
        for (const b of batches(seed)) got.push(...(await writer.write(b)));
        outcomes.push(got);
        await pool.end();
        const sql = new Client({ connectionString: db.url });
        await sql.connect();
        results.push(await state(sql));
        await sql.end();
      }
      expect(results[1]).toEqual(results[0]);
      expect(outcomes[1]).toEqual(outcomes[0]);
      expect(results[0]!.blocksExact[0].wrong).toBe('0');
      // every change recorded once, none left parked (every predecessor came), deltas and parents in place
      expect(results[0]!.parked).toEqual([]);
      expect(results[0]!.revisions.filter((r) => r.collection !== 'vellum_users')).toHaveLength(ITEMS * VERSIONS);
      expect(results[0]!.revisions.find((r) => r.event_id === 'e-1-5')!.parent_event_of_parent).toBe('e-0-3');
      // every child is linked to its parent, whichever batch (or statement) recorded each
      const children = results[1]!.revisions.filter((r) => r.parent_event);
      expect(children.length).toBeGreaterThan(ITEMS);
      expect(children.filter((r) => r.parent_event_of_parent !== r.parent_event).map((r) => r.event_id)).toEqual([]);
    });
  }
});

describe('a nested write recorded in one batch', () => {
  it('links each child to its parent recorded by the same statement', async () => {
    const db = await createTestDatabase({ migrationsDir: MIGRATIONS_DIR });
    const pool = createPool(db.url, 2);
    try {
      const event = (id: string, item: string, parent?: string): RecordableEvent => ({
        v: 1,
        kind: 'item',
        id,
        collection: 'tree',
        item,
        action: 'create',
        data: { id: item },
        delta: { id: item },
        actor: { user: null },
        timestamp: '2026-02-01T00:00:00.000Z',
        item_version: 1,
        ...(parent ? { parent_event: parent } : {}),
      });
      // children before and after their parent in the batch, and a grandchild
      const batch = [event('c1', '2', 'root'), event('root', '1'), event('c2', '3', 'root'), event('g1', '4', 'c2')];
      expect(await new EventWriter(pool).write(batch)).toEqual(['recorded', 'recorded', 'recorded', 'recorded']);
      const { rows } = await pool.query(
        `SELECT r.event_id, p.event_id AS parent FROM revisions r LEFT JOIN revisions p ON p.id = r.parent ORDER BY r.event_id`,
      );
      expect(rows).toEqual([
        { event_id: 'c1', parent: 'root' },
        { event_id: 'c2', parent: 'root' },
        { event_id: 'g1', parent: 'c2' },
        { event_id: 'root', parent: null },
      ]);
    } finally {
      await pool.end();
      await db.drop();
    }
  });
});
