import type { Harness } from './helpers';
import { access, createHarness, itemEvent, signToken } from './helpers';

export const NOW = new Date('2026-03-10T12:00:00.000Z');
export const U1 = '11111111-1111-4111-8111-111111111111';
export const U2 = '22222222-2222-4222-8222-222222222222';

/** Authorization headers of an admin and of U1 in the seeded `r-editor` role. */
export const ADMIN_AUTH = `Bearer ${signToken({ id: 'admin-user', role: 'r-admin', admin_access: true })}`;
export const EDITOR_AUTH = `Bearer ${signToken({ id: U1, role: 'r-editor' })}`;

/** A harness at NOW with the revisions below recorded. */
export async function seededHarness(): Promise<Harness> {
  const h = await createHarness(() => NOW);
  await seed(h);
  return h;
}

/**
 * Revisions (ids in this order):
 * 1 articles/1 create (U1, 2026-01-01)   2 articles/1 update (U1)   3 notes/7 create (U2)
 * 4 hidden/3 create (U2)                  5 articles/2 create, parent = 3   6 articles/1 delete (U1)
 * 7 notes/8 update with a producer delta + version, parent = 4 (hidden)
 * plus one audit activity (login, no revision).
 */
export async function seed(h: Harness) {
  const e = [
    itemEvent({
      collection: 'articles',
      item: '1',
      action: 'create',
      data: { id: 1, title: 'Hello', body: 'b1', secret: 's1' },
      actor: { user: U1, ip: '10.0.0.1', user_agent: 'jest', origin: 'http://a' },
      at: '2026-01-01T00:00:00.000Z',
    }),
    itemEvent({
      collection: 'articles',
      item: '1',
      action: 'update',
      data: { id: 1, title: 'Hello 2', body: 'b1', secret: 's2' },
      actor: { user: U1 },
      at: '2026-03-05T00:00:00.000Z',
    }),
    itemEvent({
      collection: 'notes',
      item: '7',
      action: 'create',
      data: { id: 7, text: 'note 50%_off', private: 'p' },
      actor: { user: U2 },
      at: '2026-03-06T00:00:00.000Z',
    }),
    itemEvent({ collection: 'hidden', item: '3', action: 'create', data: { id: 3, x: 'secret' }, actor: { user: U2 }, at: '2026-03-07T00:00:00.000Z' }),
  ];
  e.push(
    itemEvent({
      collection: 'articles',
      item: '2',
      action: 'create',
      data: { id: 2, title: 'Second', body: '', secret: 'z' },
      actor: { user: U1 },
      parent_event: e[2]!.id,
      at: '2026-03-08T00:00:00.000Z',
    }),
  );
  e.push(itemEvent({ collection: 'articles', item: '1', action: 'delete', data: null, actor: { user: U1 }, at: '2026-03-09T00:00:00.000Z' }));
  e.push(
    itemEvent({
      collection: 'notes',
      item: '8',
      action: 'update',
      data: { id: 8, text: 'eight', private: 'q' },
      delta: { text: 'eight', private: 'q' },
      version: 'draft',
      actor: { user: null },
      parent_event: e[3]!.id,
      at: '2026-03-09T12:00:00.000Z',
    }),
  );
  const audit = {
    kind: 'audit' as const,
    v: 1 as const,
    id: 'audit-1',
    action: 'login' as const,
    collection: 'vellum_users',
    item: U1,
    actor: { user: U1, ip: '10.0.0.9' },
    timestamp: '2026-03-09T13:00:00.000Z',
  };
  await h.writer.write([...e, audit]);
  await h.setRules('r-editor', access('r-editor', { articles: { read: ['id', 'title'] }, notes: { read: ['*'] }, vellum_activity: { read: ['*'] } }));
  await h.setRules('r-none', access('r-none', { articles: { update: ['title'] } }));
  await h.setRules('public', access(null, { notes: { read: ['text'] } }));
  return e;
}
