import type { Pool, PoolClient } from 'pg';
import type { Accountability } from '@vellum/http';
import { AccessRuleMap } from '@vellum/tokens';
import { RecordsReader } from '../src/domain/records-reader';
import { access, createHarness, type Harness } from './helpers';

/**
 * Issue 18.1: the first page of a role reading one rare collection reads the page's rows, not every row of the
 * collection (sorted then), whether the statement is planned for its values or prepared once (a generic plan: the
 * reader names a statement it has seen twice). 400 revisions of 'rare' at the oldest ids, then 4,000 of others.
 * A collection name with a quote reads its own rows.
 */
let h: Harness;
const rules = AccessRuleMap.of({
  'r-rare': access('r-rare', { rare: { read: ['*'] } }),
  'r-quote': access('r-quote', { "o'brien": { read: ['*'] } }),
});
const who = (role: string): Accountability => ({ user: 'u', role, admin: false, app: true });

beforeAll(async () => {
  h = await createHarness();
  await h.pool.query(`
    INSERT INTO activity (id, action, "user", timestamp, collection, item, event_id)
    SELECT g, 'update', 'u', timestamp '2026-01-01' + g * interval '1 s',
           CASE WHEN g <= 400 THEN 'rare' WHEN g % 500 = 0 THEN 'o''brien' ELSE 'c' || (g % 3) END, (g % 50)::text, 'ev-' || g
      FROM generate_series(1, 4400) g;
    INSERT INTO revisions (id, activity, collection, item, data, delta, event_id, timestamp, delta_computed)
    SELECT id, id, collection, item, jsonb_build_object('n', id), NULL, event_id, timestamp, true FROM activity;
    SELECT setval('revisions_id_seq', 4400), setval('activity_id_seq', 4400);
    ANALYZE revisions;`);
});
afterAll(() => h.close());

/** The rows the plan's table scans return (EXPLAIN ANALYZE), summed over the plan tree. */
function rowsScanned(node: Record<string, unknown>): number {
  const own = typeof node['Relation Name'] === 'string' ? Number(node['Actual Rows']) * Number(node['Actual Loops'] ?? 1) : 0;
  const kids = (node['Plans'] as Record<string, unknown>[] | undefined) ?? [];
  return own + kids.reduce((s, k) => s + rowsScanned(k), 0);
}

function recording(client: PoolClient, seen: { text: string; values: unknown[] }[]): Pool {
  return {
    query: (q: { text: string; values?: unknown[] } | string, values?: unknown[]) => {
      const text = typeof q === 'string' ? q : q.text;
      seen.push({ text, values: (typeof q === 'string' ? values : (q.values ?? values)) ?? [] });
      return client.query(q as string, values);
    },
  } as unknown as Pool;
}

it.each(['auto', 'force_generic_plan'])('reads a page of the rare oldest collection from its index in id order (plan cache mode %s)', async (mode) => {
  const client = await h.pool.connect();
  try {
    const seen: { text: string; values: unknown[] }[] = [];
    const reader = new RecordsReader(recording(client, seen), rules, { limitDefault: 100 });
    const page = await reader.list('revisions', who('r-rare'), reader.parse({ limit: '25', sort: '-id', fields: ['id', 'collection'] }));
    expect(page.data.map((r) => r['id'])).toEqual(Array.from({ length: 25 }, (_, i) => 400 - i));
    const list = seen.find((s) => s.text.includes('ORDER BY'))!;
    await client.query(`SET plan_cache_mode = ${mode}`);
    const name = `vellum_rare_page_${mode}`; // pg remembers a name it prepared on this connection: one per case
    await client.query({ name, text: list.text, values: list.values });
    const params = list.values.map((v) => client.escapeLiteral(String(v))).join(', ');
    for (let i = 0; i < 6; i++) await client.query({ name, text: list.text, values: list.values }); // past the custom-plan tries
    const { rows } = await client.query(`EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE ${name}${params ? `(${params})` : ''}`);
    const plan = (rows[0]['QUERY PLAN'] as { Plan: Record<string, unknown> }[])[0]!.Plan;
    expect(rowsScanned(plan)).toBeLessThanOrEqual(50); // the page (25), not the collection's 400 rows nor the others
    await client.query('RESET plan_cache_mode');
  } finally {
    client.release();
  }
});

it('reads a collection whose name has a quote: its rows only', async () => {
  const reader = new RecordsReader(h.pool, rules, { limitDefault: 100 });
  const page = await reader.list('revisions', who('r-quote'), reader.parse({ limit: '-1', sort: 'id', fields: ['id', 'collection'], meta: 'total_count' }));
  expect(page.data).toEqual([500, 1000, 1500, 2000, 2500, 3000, 3500, 4000].map((id) => ({ id, collection: "o'brien" })));
});
