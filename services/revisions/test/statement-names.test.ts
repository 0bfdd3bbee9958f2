// Statements worth preparing (named, planned once per connection): the policy, and the reader's reads using it
// against real PostgreSQL.
import { AccessRuleMap } from '@vellum/tokens';
import { createPool } from '../src/data/pool';
import { StatementNames } from '../src/data/statement-names';
import { RecordsReader } from '../src/domain/records-reader';
import { REVISION_BLOCK_SIZE } from '../src/data/record-counts.repository';
import { access, createHarness, itemEvent, type Harness } from './helpers';

describe('StatementNames', () => {
  it('names a text the second time it is seen, the same name for the same text, none for one-off texts', () => {
    const names = new StatementNames(3);
    const a = { text: 'SELECT 1', values: [] };
    expect(names.named(a)).toBe(a);
    const second = names.named({ text: 'SELECT 1', values: [1] });
    expect(second.name).toMatch(/^vellum_[\w-]{27}$/);
    expect(second.values).toEqual([1]);
    const other = new StatementNames(3);
    other.named({ text: 'SELECT 1' });
    expect(other.named({ text: 'SELECT 1' }).name).toBe(second.name); // a hash of the text: readers sharing a pool agree
    // the same statement object again: the same named object (no work per request)
    const plan = { text: 'SELECT 2' };
    names.named(plan);
    const n1 = names.named(plan);
    expect(names.named(plan)).toBe(n1);
  });

  it('forgets the least recently seen texts past `max`', () => {
    const names = new StatementNames(2);
    names.named({ text: 'a' });
    names.named({ text: 'b' });
    names.named({ text: 'c' }); // 'a' falls out
    expect(names.named({ text: 'a' }).name).toBeUndefined();
    expect(names.named({ text: 'c' }).name).toBeDefined();
  });
});

describe('the reader prepares its repeated statements', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness();
    await h.writer.write([itemEvent({ collection: 'c', item: '1', data: { x: 1 }, at: '2026-01-01T00:00:00.000Z' })]);
    // enough rows that a plan for "a tenth of them" (what PostgreSQL assumes of a LIMIT parameter) costs more
    await h.pool.query(`
      INSERT INTO revisions (activity, collection, item, data, event_id, timestamp)
      SELECT 1, 'c', (g % 100)::text, '{}', 'bulk-' || g, timestamp '2026-01-02' + g * interval '1 s' FROM generate_series(1, 20000) g;
      DELETE FROM record_counts; DELETE FROM revision_blocks;
      INSERT INTO record_counts SELECT 'revisions', collection, count(*) FROM revisions GROUP BY 2;
      INSERT INTO revision_blocks SELECT collection, id / ${REVISION_BLOCK_SIZE}, count(*) FROM revisions GROUP BY 1, 2;
      ANALYZE revisions;`);
  });
  afterAll(() => h.close());

  it('a list read twice runs as a named statement on the connection, with the same answer', async () => {
    const pool = createPool(h.db.url, 1);
    try {
      const reader = new RecordsReader(pool, AccessRuleMap.of({}), { limitDefault: 100, deferredJoinOffset: 1000 });
      const acc = { user: 'u', role: 'r', admin: true, app: true };
      const first = await reader.list('revisions', acc, reader.parse({ sort: '-id', limit: 5 }));
      const prepared = async () => (await pool.query<{ name: string }>(`SELECT name FROM pg_prepared_statements WHERE name LIKE 'vellum_%'`)).rows;
      expect(await prepared()).toEqual([]);
      const second = await reader.list('revisions', acc, reader.parse({ sort: '-id', limit: 5 }));
      expect(second).toEqual(first);
      expect(await prepared()).toHaveLength(1);
      await reader.list('revisions', acc, reader.parse({ sort: '-id', limit: 5 }));
      expect(await prepared()).toHaveLength(1);
    } finally {
      await pool.end();
    }
  });

  it('a cached plan (a repeated query text) is prepared under one name: one statement-naming mechanism', async () => {
    const pool = createPool(h.db.url, 1);
    try {
      const reader = new RecordsReader(pool, AccessRuleMap.of({}), { limitDefault: 100, deferredJoinOffset: 1000 });
      const acc = { user: 'u', role: 'r', admin: true, app: true };
      const q = { sort: '-id', limit: 6, fields: 'id,collection' };
      const pages = [];
      for (let i = 0; i < 4; i++)
        pages.push(await reader.listText('revisions', acc, reader.parse(q), { cacheKey: 'GET sort=-id&limit=6&fields=id,collection' }));
      expect(new Set(pages).size).toBe(1);
      expect(reader.cachedPlans()).toBe(1);
      const { rows } = await pool.query<{ name: string }>(`SELECT name FROM pg_prepared_statements WHERE statement LIKE '%LIMIT 6%'`);
      expect(rows.map((r) => r.name)).toEqual([expect.stringMatching(/^vellum_/)]);
    } finally {
      await pool.end();
    }
  });

  it('plans a prepared list once: its generic plan is used from the sixth run on (LIMIT written in, not a parameter)', async () => {
    const pool = createPool(h.db.url, 1);
    try {
      const reader = new RecordsReader(pool, AccessRuleMap.of({}), { limitDefault: 100, deferredJoinOffset: 1000 });
      const acc = { user: 'u', role: 'r', admin: true, app: true };
      for (let i = 0; i < 12; i++) await reader.list('revisions', acc, reader.parse({ sort: '-id', limit: 7 }));
      const { rows } = await pool.query<{ generic: string; custom: string }>(
        `SELECT generic_plans AS generic, custom_plans AS custom FROM pg_prepared_statements WHERE name LIKE 'vellum_%'`,
      );
      // run 1 unnamed; runs 2–12 named: at most 5 custom plans while PostgreSQL compares, then the generic one
      expect(rows).toHaveLength(1);
      expect(Number(rows[0]!.generic)).toBeGreaterThanOrEqual(6);
      expect(Number(rows[0]!.custom)).toBeLessThanOrEqual(5);
    } finally {
      await pool.end();
    }
  });

  it('plans a role’s deep page once for every offset: one text (the offset its one parameter), its generic plan kept', async () => {
    const pool = createPool(h.db.url, 1);
    try {
      const rules = AccessRuleMap.of({ r: access('r', { c: { read: ['*'] }, d: { read: ['*'] } }) });
      const reader = new RecordsReader(pool, rules, { limitDefault: 100, deferredJoinOffset: 1000 });
      const acc = { user: 'u', role: 'r', admin: false, app: true };
      const plain = new RecordsReader(pool, rules, { limitDefault: 100, deferredJoinOffset: Number.MAX_SAFE_INTEGER, mergeMaxCollections: 0 });
      for (let i = 0; i < 12; i++) {
        const q = { sort: '-id', limit: 10, offset: 5000 + i };
        const page = await reader.list('revisions', acc, reader.parse(q));
        expect(page).toEqual(await plain.list('revisions', acc, plain.parse(q)));
      }
      const { rows } = await pool.query<{ generic: string; custom: string }>(
        `SELECT generic_plans AS generic, custom_plans AS custom FROM pg_prepared_statements WHERE statement LIKE 'WITH "seek"%'`,
      );
      expect(rows).toHaveLength(1);
      expect(Number(rows[0]!.generic)).toBeGreaterThanOrEqual(6);
    } finally {
      await pool.end();
    }
  });
});
