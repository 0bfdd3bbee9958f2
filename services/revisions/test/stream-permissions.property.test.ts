import fc from 'fast-check';
import { createStreamHarness, access, idsOf, revisionsOf, type StreamHarness } from './stream-support';
import { itemEvent, signToken } from './helpers';

// Property: whatever a role may read, whatever the filter and fields, and however the writes are batched, a
// subscriber's stream is exactly what `/revisions` lists for that role with the same filter and fields (so never a
// revision — not even an id — of a collection it cannot read), in revision order.
const COLLECTIONS = ['a', 'b', 'c', 'd'];

const rule = fc.record({
  readable: fc.subarray(COLLECTIONS),
  fields: fc.constantFrom<'*' | string[]>('*', ['x'], ['x', 'y'], ['z']),
});
const write = fc.record({
  collection: fc.constantFrom(...COLLECTIONS),
  item: fc.constantFrom('1', '2', '3'),
  action: fc.constantFrom<'create' | 'update' | 'delete'>('create', 'update', 'delete'),
  data: fc.record({ x: fc.integer(), y: fc.string({ maxLength: 3 }), z: fc.boolean() }),
});
const filter = fc.constantFrom<Record<string, unknown> | null>(
  null,
  { collection: { _eq: 'a' } },
  { collection: { _in: ['b', 'c'] } },
  { item: { _eq: '2' } },
  { activity: { action: { _in: ['create', 'delete'] } } },
  { _or: [{ collection: { _eq: 'd' } }, { activity: { action: { _eq: 'update' } } }] },
  { _and: [{ collection: { _neq: 'a' } }, { item: { _in: ['1', '3'] } }] },
);
const fields = fc.constantFrom('*', 'id,collection,data', '*,activity.*', 'id,item,delta,activity.action');

let h: StreamHarness;
beforeAll(async () => {
  h = await createStreamHarness();
});
afterAll(() => h.close());

const ADMIN = `Bearer ${signToken({ id: 'admin', role: null, admin_access: true })}`;
let run = 0;

it('a restricted subscriber receives exactly what /revisions shows its role, nothing of an unreadable collection', async () => {
  await fc.assert(
    fc.asyncProperty(
      rule,
      fc.array(fc.array(write, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 4 }),
      filter,
      fields,
      async (r, batches, f, shown) => {
        const role = `r-prop-${++run}`;
        const permissions = Object.fromEntries(r.readable.map((c) => [c, { read: r.fields === '*' ? ['*'] : r.fields }]));
        await h.setRules(role, access(role, permissions));
        await new Promise((res) => setTimeout(res, 20));
        const auth = `Bearer ${signToken({ id: `u-${role}`, role })}`;
        const query = `fields=${shown}${f ? `&filter=${encodeURIComponent(JSON.stringify(f))}` : ''}`;
        const stream = await h.stream(`/revisions/stream?${query}`, { authorization: auth });
        const all = await h.stream('/revisions/stream?fields=id', { authorization: ADMIN });
        const before = Number((await h.pool.query<{ m: string | null }>('SELECT max(id)::text AS m FROM revisions')).rows[0]!.m ?? 0);
        for (const batch of batches)
          await h.writer.write(
            batch.map((w) => itemEvent({ ...w, data: w.action === 'delete' ? null : { id: w.item, ...w.data }, at: new Date().toISOString() })),
          );
        const head = Number((await h.pool.query<{ m: string }>('SELECT max(id)::text AS m FROM revisions')).rows[0]!.m);
        await all.until((e) => idsOf(e).includes(head));
        const range = { id: { _gt: before } };
        const listed = await h.get(
          `/revisions?sort=id&limit=-1&fields=${shown}&filter=${encodeURIComponent(JSON.stringify(f ? { _and: [f, range] } : range))}`,
          auth,
        );
        expect(listed.status).toBe(200);
        const expected = listed.body.data!;
        if (expected.length) await stream.until((e) => idsOf(e).length >= expected.length, 5000);
        else await new Promise((res) => setTimeout(res, 50));
        stream.close();
        all.close();
        expect(revisionsOf(stream.events)).toEqual(expected);
        const ids = idsOf(stream.events);
        expect(ids).toEqual([...ids].sort((x, y) => x - y));
        const { rows } = await h.pool.query<{ collection: string }>('SELECT collection FROM revisions WHERE id = ANY($1::int8[])', [ids]);
        for (const row of rows) expect(r.readable).toContain(row.collection);
      },
    ),
    { numRuns: 25 },
  );
}, 120_000);
