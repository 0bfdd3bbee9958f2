import type { Accountability } from '@vellum/http';
import type { RoleAccess } from '@vellum/contracts';
import { AsOfReader } from '../src/domain/as-of/as-of-reader';
import type { AccessRules } from '../src/domain/visibility';
import { createHarness, itemEvent, type Harness } from './helpers';

// A list as it was refuses a field the role cannot read when the query names it — in `fields` or in its filter —
// whatever the states at that time: also when there are none (every item deleted by then, or not created yet),
// where a check made on each returned state never ran and the answer was an empty 200.

const reader: RoleAccess = { role: 'r', admin: false, app: true, permissions: { notes: { read: ['id', 'title'] } }, updated_at: '2026-01-01T00:00:00Z' };
const rules: AccessRules = { get: (role) => (role === 'r' ? reader : undefined) };
const acc: Accountability = { user: 'u', role: 'r', admin: false, app: true };
const at = (minute: number) => new Date(Date.parse('2026-01-01T00:00:00Z') + minute * 60_000);

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
  await h.writer.write([
    itemEvent({ collection: 'notes', item: '1', action: 'create', data: { id: 1, title: 'a', body: 'x' }, at: at(10).toISOString(), item_version: 1 }),
    itemEvent({ collection: 'notes', item: '1', action: 'delete', data: null, at: at(20).toISOString(), item_version: 2 }),
  ]);
});
afterAll(() => h.close());

const code = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e: { code?: string }) => e.code ?? 'error',
  );

it.each(['keyed', 'sql', 'general'] as const)('%s: a named unreadable field is 403 with states or without', async (mode) => {
  const lists = new AsOfReader(h.pool, rules, { limitDefault: 100 }, undefined, mode);
  for (const minute of [5, 15, 25]) {
    // 5: before the item, 15: while it lived, 25: after its deletion
    expect(await code(lists.list(acc, 'notes', at(minute), { fields: 'body' }))).toBe('FORBIDDEN');
    expect(await code(lists.list(acc, 'notes', at(minute), { fields: '*,body' }))).toBe('FORBIDDEN');
    expect(await code(lists.list(acc, 'notes', at(minute), { filter: { _or: [{ title: { _eq: 'a' } }, { body: { _nnull: true } }] } }))).toBe('FORBIDDEN');
    expect(await code(lists.list(acc, 'notes', at(minute), { fields: 'id,title', filter: { title: { _nnull: true } } }))).toBe('ok');
  }
  const during = await lists.list(acc, 'notes', at(15), { fields: '*' });
  expect(during.data.map((d) => Object.keys(d).sort())).toEqual([['$meta', 'id', 'title']]);
});
