import request from 'supertest';
import type { AuditEvent } from '@vellum/contracts';
import { parseEvent } from '../src/events/item-events.consumer';
import { access, createHarness, signToken, type Harness } from './helpers';

// Issue 36: a failed scheduled promote is an activity (audit event `promote_failed`): an activity row with its
// reason in `comment`, no revision, readable with GET /activity like any other.
let h: Harness;
const adminToken = signToken({ id: 'u-admin', role: 'r-admin', admin_access: true });
const get = (url: string) => request(h.app.listener).get(url).set('Authorization', `Bearer ${adminToken}`);

const failed: AuditEvent = {
  v: 1,
  id: 'pf-1',
  kind: 'audit',
  action: 'promote_failed',
  collection: 'articles',
  item: '7',
  actor: { user: 'u-editor', ip: null, user_agent: null, origin: null },
  timestamp: '2026-03-01T10:00:00.000Z',
  comment: 'version v-1 (draft): VERSION_HASH_MISMATCH: the item changed since the promote was scheduled (its hash is now 2)',
};

beforeAll(async () => {
  h = await createHarness();
  await h.setRules('r-admin', access('r-admin', {}, true));
});
afterAll(async () => h.close());

describe('promote_failed activity', () => {
  it('is a valid event on the ITEMS stream, recorded once as an activity with its comment and no revision', async () => {
    const parsed = parseEvent(failed);
    expect(parsed).toEqual({ event: { ...failed, kind: 'audit' } });
    expect(
      await h.writer.write([
        { ...failed, kind: 'audit' },
        { ...failed, kind: 'audit' },
      ]),
    ).toEqual(['recorded', 'duplicate']);
    const rows = await h.pool.query(`SELECT action, "user", collection, item, comment FROM activity WHERE event_id = 'pf-1'`);
    expect(rows.rows).toEqual([{ action: 'promote_failed', user: 'u-editor', collection: 'articles', item: '7', comment: failed.comment }]);
    expect((await h.pool.query(`SELECT count(*)::int AS n FROM revisions`)).rows[0].n).toBe(0);
  });

  it('GET /activity filters it by action and shows the comment; other activity has comment null', async () => {
    await h.writer.write([{ ...failed, id: 'login-1', action: 'login', comment: undefined, kind: 'audit' }]);
    const r = await get('/activity?filter[action][_eq]=promote_failed&fields=action,user,collection,item,comment').expect(200);
    expect(r.body.data).toEqual([{ action: 'promote_failed', user: 'u-editor', collection: 'articles', item: '7', comment: failed.comment }]);
    const login = await get('/activity?filter[action][_eq]=login&fields=action,comment').expect(200);
    expect(login.body.data).toEqual([{ action: 'login', comment: null }]);
  });
});
