import { createStreamHarness, access, idsOf, revisionsOf, type StreamHarness } from './stream-support';
import { itemEvent, signToken } from './helpers';

const ADMIN = `Bearer ${signToken({ id: 'admin-user', role: 'r-admin', admin_access: true })}`;
const EDITOR = `Bearer ${signToken({ id: 'u-editor', role: 'r-editor' })}`;
const at = () => new Date().toISOString();
const change = (collection: string, item: string, data: Record<string, unknown>, action: 'create' | 'update' | 'delete' = 'update') =>
  itemEvent({ collection, item, action, data: action === 'delete' ? null : data, at: at() });

let h: StreamHarness;
beforeAll(async () => {
  h = await createStreamHarness();
  await h.setRules('r-editor', access('r-editor', { articles: { read: ['id', 'title'] }, notes: { read: ['*'] } }));
});
afterAll(() => h.close());

/** The newest revision id. */
const head = async () => Number((await h.pool.query<{ m: string | null }>('SELECT max(id)::text AS m FROM revisions')).rows[0]!.m ?? 0);

describe('GET /revisions/stream', () => {
  it('sends each new revision as /revisions shows it, with its id, in revision order', async () => {
    const s = await h.stream('/revisions/stream?fields=*,activity.*', { authorization: ADMIN });
    expect(s.status).toBe(200);
    expect(s.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(s.headers['cache-control']).toContain('no-cache');
    const before = await head();
    await h.writer.write([change('articles', 'a1', { id: 'a1', title: 'one' }, 'create')]);
    await h.writer.write([change('articles', 'a1', { id: 'a1', title: 'two' }), change('notes', 'n1', { id: 'n1', text: 'x' }, 'create')]);
    const events = await s.until((e) => idsOf(e).length >= 3);
    s.close();
    const listed = await h.get(`/revisions?fields=*,activity.*&sort=id&filter={"id":{"_gt":${before}}}`, ADMIN);
    expect(idsOf(events)).toEqual(listed.body.data!.map((r) => r.id));
    expect(revisionsOf(events)).toEqual(listed.body.data);
  });

  it('shows a restricted role only the collections and fields it may read, as /revisions does', async () => {
    const s = await h.stream('/revisions/stream', { authorization: EDITOR });
    const before = await head();
    await h.writer.write([
      change('secrets', 's1', { id: 's1', code: 'x' }, 'create'),
      change('articles', 'a2', { id: 'a2', title: 'T', body: 'hidden' }, 'create'),
      change('secrets', 's1', {}, 'delete'),
      change('notes', 'n2', { id: 'n2', text: 't' }, 'create'),
    ]);
    const events = await s.until((e) => idsOf(e).length >= 2);
    await h.writer.write([change('notes', 'n2', { id: 'n2', text: 'u' })]);
    await s.until((e) => idsOf(e).length >= 3);
    s.close();
    const listed = await h.get(`/revisions?sort=id&filter={"id":{"_gt":${before}}}`, EDITOR);
    expect(revisionsOf(events)).toEqual(listed.body.data);
    expect(revisionsOf(events).map((r) => r.collection)).toEqual(['articles', 'notes', 'notes']);
    expect(JSON.stringify(events)).not.toContain('secrets');
    expect(revisionsOf(events)[0]!.data).toEqual({ id: 'a2', title: 'T' });
  });

  it('applies the filter (collection, item, action) and fields of /revisions', async () => {
    const filter = encodeURIComponent(JSON.stringify({ _and: [{ collection: { _eq: 'notes' } }, { activity: { action: { _in: ['create', 'delete'] } } }] }));
    const s = await h.stream(`/revisions/stream?filter=${filter}&fields=id,item,activity.action`, { authorization: ADMIN });
    const before = await head();
    await h.writer.write([change('notes', 'f1', { id: 'f1' }, 'create'), change('articles', 'f2', { id: 'f2' }, 'create')]);
    await h.writer.write([change('notes', 'f1', { id: 'f1', v: 2 }), change('notes', 'f1', {}, 'delete')]);
    const events = await s.until((e) => idsOf(e).length >= 2);
    s.close();
    const listed = await h.get(
      `/revisions?fields=id,item,activity.action&sort=id&filter=${encodeURIComponent(JSON.stringify({ _and: [JSON.parse(decodeURIComponent(filter)), { id: { _gt: before } }] }))}`,
      ADMIN,
    );
    expect(revisionsOf(events)).toEqual(listed.body.data);
    expect(revisionsOf(events).map((r) => (r.activity as { action: string }).action)).toEqual(['create', 'delete']);
  });

  it('resumes after Last-Event-ID or ?since: every later revision once, in order, then the live ones', async () => {
    const before = await head();
    for (let i = 0; i < 5; i++) await h.writer.write([change('articles', `r${i}`, { id: `r${i}` }, 'create')]);
    const ids = (await h.get(`/revisions?fields=id&sort=id&filter={"id":{"_gt":${before}}}`, ADMIN)).body.data!.map((r) => r.id as number);
    const byHeader = await h.stream('/revisions/stream', { authorization: ADMIN, 'last-event-id': String(ids[1]) });
    const byQuery = await h.stream(`/revisions/stream?since=${ids[2]}`, { authorization: ADMIN });
    await byHeader.until((e) => idsOf(e).length >= 3);
    await h.writer.write([change('articles', 'r5', { id: 'r5' }, 'create')]);
    const last = (await head()) as number;
    await byHeader.until((e) => idsOf(e).includes(last));
    await byQuery.until((e) => idsOf(e).includes(last));
    byHeader.close();
    byQuery.close();
    expect(idsOf(byHeader.events)).toEqual([...ids.slice(2), last]);
    expect(idsOf(byQuery.events)).toEqual([...ids.slice(3), last]);
  });

  it('never hands out an id while an earlier one may still commit, nor waits for one that rolled back', async () => {
    const s = await h.stream('/revisions/stream?fields=id', { authorization: ADMIN });
    const insert = (c: import('pg').PoolClient, item: string) =>
      c.query(
        `WITH a AS (INSERT INTO activity (action, timestamp, collection, item, event_id) VALUES ('create', now(), 'gaps', $1, $1) RETURNING id)
         INSERT INTO revisions (activity, collection, item, data, event_id, timestamp) SELECT a.id, 'gaps', $1, '{}'::jsonb, $1, now() FROM a RETURNING id`,
        [item],
      );
    const slow = await h.pool.connect();
    const fast = await h.pool.connect();
    const doomed = await h.pool.connect();
    try {
      await slow.query('BEGIN');
      const first = Number((await insert(slow, `g-slow-${Date.now()}`)).rows[0]!.id);
      await doomed.query('BEGIN');
      const lost = Number((await insert(doomed, `g-lost-${Date.now()}`)).rows[0]!.id);
      const second = Number((await insert(fast, `g-fast-${Date.now()}`)).rows[0]!.id);
      expect([first < lost, lost < second]).toEqual([true, true]);
      h.app.feed.poke();
      await new Promise((r) => setTimeout(r, 300));
      expect(idsOf(s.events)).toEqual([]);
      await slow.query('COMMIT');
      h.app.feed.poke();
      await s.until((e) => idsOf(e).length >= 1);
      await new Promise((r) => setTimeout(r, 200));
      expect(idsOf(s.events)).toEqual([first]);
      await doomed.query('ROLLBACK');
      await s.until((e) => idsOf(e).length >= 2);
      expect(idsOf(s.events)).toEqual([first, second]);
    } finally {
      slow.release();
      fast.release();
      doomed.release();
      s.close();
    }
  });

  it('answers a filter it cannot evaluate in memory with 400, before any event', async () => {
    const s = await h.stream(`/revisions/stream?filter=${encodeURIComponent('{"data":{"_null":true}}')}`, { authorization: ADMIN });
    expect(s.status).toBe(400);
    expect(JSON.parse(s.body).errors[0].extensions.code).toBe('INVALID_QUERY');
    const bad = await h.stream('/revisions/stream?since=abc', { authorization: ADMIN });
    expect(bad.status).toBe(400);
  });
});
