import request from 'supertest';
import { errorCode } from '@vellum/testing';
import { createItemsPool, VersionScheduler } from '../src';
import { harness, type Harness } from './helpers';

// Issue 36, point 2: `PATCH /versions/:id {publish_at}` schedules a promote, run once at publish_at by the items
// service's scheduler (the version row is the job, claimed FOR UPDATE SKIP LOCKED) as the user who scheduled it.
let h: Harness;
const bearer = (t: string) => ({ Authorization: `Bearer ${t}` });
const get = (url: string, token = h.admin) => request(h.app).get(url).set(bearer(token));
const post = (url: string, body: object, token = h.admin) => request(h.app).post(url).set(bearer(token)).send(body);
const patch = (url: string, body: object, token = h.admin) => request(h.app).patch(url).set(bearer(token)).send(body);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const inMs = (ms: number) => new Date(Date.now() + ms).toISOString();

const logs: { msg: string; version?: string }[] = [];
const logger = {
  info: (o: object, msg?: string) => void logs.push({ ...o, msg: msg ?? '' }),
  warn: (o: object, msg?: string) => void logs.push({ ...o, msg: msg ?? '' }),
  error: () => undefined,
};
const schedulerOn = (pool = h.pool, pollMs = 300) =>
  new VersionScheduler({ pool, rules: h.rules, now: () => new Date(), limits: { limitDefault: 100 } }, { logger, pollMs });

/** Update events of one article (a promote is one; a save has `version` set and is not counted). */
const promotesOf = async (id: number) =>
  (await h.outbox()).map((m) => m.payload).filter((p) => p.collection === 'articles' && p.item === String(id) && p.action === 'promote' && !p.version).length;
const versionOf = async (vid: string) => (await get(`/versions/${vid}`).expect(200)).body.data;
const until = async <T>(what: () => Promise<T | undefined>, ms = 5000): Promise<T> => {
  for (const end = Date.now() + ms; Date.now() < end; await sleep(50)) {
    const v = await what();
    if (v !== undefined) return v;
  }
  throw new Error('timed out');
};

/** A fresh article with a version holding a saved title. */
async function draft(name: string, token = h.admin) {
  const id = (await post('/items/articles', { title: `live ${name}` }).expect(200)).body.data.id as number;
  const v = (await post('/versions', { key: 'draft', collection: 'articles', item: id }, token).expect(200)).body.data;
  await post(`/versions/${v.id}/save`, { title: `draft ${name}` }, token).expect(200);
  return { id, vid: v.id as string };
}
const titleOf = async (id: number) => (await get(`/items/articles/${id}`).expect(200)).body.data.title;

let scheduler: VersionScheduler;
beforeAll(async () => {
  h = await harness();
  await post('/collections', { collection: 'articles', meta: { versioning: true }, fields: [{ field: 'title', type: 'string' }] }).expect(200);
  await h.grant('editor', { articles: { read: ['*'], update: ['*'] } });
  scheduler = schedulerOn();
  scheduler.start();
});
afterAll(async () => {
  await scheduler.stop();
  await h.close();
});

describe('scheduled promote', () => {
  it('runs once at publish_at, as the user who scheduled it; the version shows when and how it went', async () => {
    const { id, vid } = await draft('on-time');
    const at = inMs(1500);
    const scheduled = await patch(`/versions/${vid}`, { publish_at: at }).expect(200);
    expect(scheduled.body.data).toMatchObject({ publish_at: at, publish_force: false, publish_status: 'scheduled', publish_error: null });
    expect(await titleOf(id)).toBe('live on-time');
    const appliedAt = await until(async () => ((await titleOf(id)) === 'draft on-time' ? Date.now() : undefined), 6500);
    expect(appliedAt).toBeGreaterThanOrEqual(Date.parse(at));
    expect(appliedAt - Date.parse(at)).toBeLessThan(5000);
    await sleep(1000); // later passes find nothing left to do
    expect(await promotesOf(id)).toBe(1);
    expect(await versionOf(vid)).toMatchObject({ publish_status: 'done', publish_error: null });
    // the promote's event (activity `promote`) names the scheduling user as its actor
    const ev = (await h.outbox()).map((m) => m.payload).find((p) => p.item === String(id) && p.action === 'promote' && !p.version);
    expect(ev).toMatchObject({ actor: expect.objectContaining({ user: expect.any(String) }) });
  });

  it('main moved since the schedule → failed with the reason, nothing applied', async () => {
    const { id, vid } = await draft('stale');
    await patch(`/versions/${vid}`, { publish_at: inMs(500) }).expect(200);
    await patch(`/items/articles/${id}`, { title: 'concurrent' }).expect(200);
    const v = await until(async () => {
      const r = await versionOf(vid);
      return r.publish_status === 'scheduled' ? undefined : r;
    });
    expect(v).toMatchObject({ publish_status: 'failed', publish_error: expect.stringMatching(/^VERSION_HASH_MISMATCH: .*now 2/) });
    expect(await titleOf(id)).toBe('concurrent');
    expect(await promotesOf(id)).toBe(0); // only the concurrent PATCH (an update) changed it
    // the failure is an activity (audit event `promote_failed`, no revision) by the scheduling user, with the reason
    const failed = (await h.outbox()).filter((m) => m.payload.item === String(id) && m.payload.action === 'promote_failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ subject: 'items.articles.promote_failed' });
    expect(failed[0]!.payload).toMatchObject({
      kind: 'audit',
      collection: 'articles',
      actor: { user: expect.any(String) },
      comment: expect.stringMatching(new RegExp(`^version ${vid} \\(draft\\): VERSION_HASH_MISMATCH: `)),
    });
  });

  it('publish_force promotes even though main moved', async () => {
    const { id, vid } = await draft('forced');
    await patch(`/versions/${vid}`, { publish_at: inMs(500), publish_force: true }).expect(200);
    await patch(`/items/articles/${id}`, { title: 'concurrent' }).expect(200);
    await until(async () => ((await titleOf(id)) === 'draft forced' ? true : undefined));
    expect(await versionOf(vid)).toMatchObject({ publish_status: 'done', publish_force: true });
  });

  it('publish_at null cancels: nothing happens', async () => {
    const { id, vid } = await draft('cancelled');
    await patch(`/versions/${vid}`, { publish_at: inMs(800) }).expect(200);
    const cancelled = await patch(`/versions/${vid}`, { publish_at: null }).expect(200);
    expect(cancelled.body.data).toMatchObject({ publish_at: null, publish_status: null });
    await sleep(1800);
    expect(await titleOf(id)).toBe('live cancelled');
    expect(await promotesOf(id)).toBe(0);
  });

  it('runs with the scheduling user’s rules as they are at publish_at: a right taken away → failed FORBIDDEN', async () => {
    const editor = h.tokenFor('editor');
    const { id, vid } = await draft('revoked', editor);
    await patch(`/versions/${vid}`, { publish_at: inMs(800) }, editor).expect(200);
    await h.grant('editor', { articles: { read: ['*'] } });
    const v = await until(async () => {
      const r = await versionOf(vid);
      return r.publish_status === 'scheduled' ? undefined : r;
    });
    await h.grant('editor', { articles: { read: ['*'], update: ['*'] } });
    expect(v).toMatchObject({ publish_status: 'failed', publish_error: expect.stringMatching(/^FORBIDDEN/) });
    expect(await titleOf(id)).toBe('live revoked');
  });

  it('refuses a time without an offset, and needs update on the collection', async () => {
    const { vid } = await draft('refused');
    const r = await patch(`/versions/${vid}`, { publish_at: 'tomorrow' });
    expect([r.status, errorCode(r)]).toEqual([400, 'INVALID_PAYLOAD']);
    await h.grant('reader', { articles: { read: ['*'] } });
    expect((await patch(`/versions/${vid}`, { publish_at: inMs(1000) }, h.tokenFor('reader'))).status).toBe(403);
  });
});

describe('waking', () => {
  it('sleeps until the nearest publish_at, not the poll interval, once woken by a schedule', async () => {
    await scheduler.stop();
    const lazy = schedulerOn(h.pool, 60_000);
    lazy.start();
    try {
      const { id, vid } = await draft('woken');
      const at = inMs(1000);
      await patch(`/versions/${vid}`, { publish_at: at }).expect(200);
      lazy.wake(); // what the PATCH route does in the service (createApp's versionScheduler)
      // within seconds of publish_at (a loaded machine's), not at the next poll a minute later
      const appliedAt = await until(async () => ((await titleOf(id)) === 'draft woken' ? Date.now() : undefined), 10_000);
      expect(appliedAt - Date.parse(at)).toBeLessThan(8000);
    } finally {
      await lazy.stop();
    }
  });
});

describe('several replicas on one database', () => {
  it('two schedulers (own pools), the same due rows: each promote runs exactly once', async () => {
    await scheduler.stop();
    const pool2 = createItemsPool(h.db.url, 5);
    const [a, b] = [schedulerOn(h.pool, 100), schedulerOn(pool2, 100)];
    try {
      const drafts = await Promise.all(['r1', 'r2', 'r3', 'r4', 'r5', 'r6'].map((n) => draft(n)));
      const at = inMs(700);
      for (const d of drafts) await patch(`/versions/${d.vid}`, { publish_at: at }).expect(200);
      logs.length = 0;
      a.start();
      b.start();
      await sleep(800);
      await Promise.all([a.tick(), b.tick(), a.tick(), b.tick()]); // and race them head on
      await until(async () => ((await Promise.all(drafts.map((d) => versionOf(d.vid)))).every((v) => v.publish_status === 'done') ? true : undefined));
      for (const d of drafts) expect(await promotesOf(d.id)).toBe(1);
      const done = logs.filter((l) => l.msg === 'scheduled promote done').map((l) => l.version);
      expect(done.sort()).toEqual(drafts.map((d) => d.vid).sort());
    } finally {
      await Promise.all([a.stop(), b.stop()]);
      await pool2.end();
    }
  });
});
