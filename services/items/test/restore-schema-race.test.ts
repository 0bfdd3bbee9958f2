import request from 'supertest';
import { Client } from 'pg';
import { untilLockWaiters } from '@vellum/testing';
import type { ReadRevision } from '../src/data/revisions-client';
import { createItemsPool } from '../src/data/items-pool';
import type { ItemsDeps } from '../src/domain/items-deps';
import { restoreRevision } from '../src/domain/restore-revision.use-case';
import { harness, type Harness } from './helpers';
import { createSchema } from './schema-fixtures';

// A restore of one revision planned while a field change commits: its statement, prepared on the connection before
// the change, then fails as stale ("cached plan must not change result type") — planned again on the definition
// read afresh, as a tree's restore was, instead of answering 500.
let h: Harness;
let other: Client;
let deps: ItemsDeps;
const auth = () => ({ Authorization: `Bearer ${h.admin}` });

beforeAll(async () => {
  h = await harness();
  other = new Client({ connectionString: h.db.url });
  await other.connect();
  // one connection: the restore's statements are prepared where the next restore runs them
  deps = { pool: createItemsPool(h.db.url, 1), rules: h.rules, now: () => new Date(), limits: { limitDefault: 100 } };
  await createSchema(h, { memos: 'title:string,note:string' });
});
afterAll(async () => {
  await deps.pool.end();
  await other.end();
  await h.close();
});

it('a field dropped while a restore is planned: planned again on the new definition, the field skipped', async () => {
  await request(h.app).post('/items/memos').set(auth()).send({ title: 'first', note: 'kept' }).expect(200);
  await request(h.app).patch('/items/memos/1').set(auth()).send({ title: 'second' }).expect(200);
  const created = (await h.outbox())
    .map((m) => m.payload as { collection: string; item: string; data: Record<string, unknown> })
    .find((e) => e.collection === 'memos')!;
  const rev: ReadRevision = { id: 1, collection: 'memos', item: created.item, data: created.data, activity: { action: 'create' }, parent: null };
  const source = { revision: async () => rev, children: async () => [] };
  const ctx = { accountability: { user: null, role: null, admin: true, app: true }, now: new Date() };
  const restore = (dryRun: boolean) => restoreRevision(deps, ctx, source, '1', {}, dryRun);
  expect((await restore(true)).changed_fields).toEqual(['title']); // prepares the row's locked read on the connection

  // a field drop as the fields endpoint makes it, held open: its catalogue row and column gone, not committed
  await other.query('BEGIN');
  await other.query(`DELETE FROM fields WHERE collection = 'memos' AND field = 'note'`);
  await other.query('ALTER TABLE content.memos DROP COLUMN note');
  const pending = restore(false);
  await untilLockWaiters((t) => h.pool.query(t));
  await other.query('COMMIT');
  const outcome = await pending;
  expect(outcome).toMatchObject({ action: 'update', changed_fields: ['title'], applied: true, skipped: [{ field: 'note', reason: 'dropped' }] });
  expect((await h.pool.query('SELECT title FROM content.memos')).rows).toEqual([{ title: 'first' }]);
});
