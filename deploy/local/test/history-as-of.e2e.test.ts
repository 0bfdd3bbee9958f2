import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import request from 'supertest';
import { collectionWithId, eventually, startTestPlatform, type TestPlatform } from './platform-harness';

// Items as they were, through the gateway of the composed platform: a random history of creates, updates and
// deletes, written while a client records what it saw after each acknowledged write; then `?at=` for random
// instants must answer exactly those states (one item and the whole list), a restricted role never sees a field it
// cannot read today, and a time before the kept history is 410.
type Item = Record<string, unknown>;
const WRITES = Number(process.env.HISTORY_WRITES ?? 150);
const INSTANTS = Number(process.env.HISTORY_INSTANTS ?? 1000);
const KEYS = 5;

/** A seeded generator, so a failing history can be replayed (its seed is in the failure). */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), s | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** What the client knew between two writes: from just after one's answer to just before the next request. */
interface Window {
  from: number;
  to: number;
  states: Map<number, Item>;
}

// the seed is in every test's name, so a failure names the history to replay (HISTORY_SEED=<seed>)
const seed = Number(process.env.HISTORY_SEED ?? Date.now() % 100_000);

describe(`GET /items/:collection[/:id]?at= — random histories replayed (HISTORY_SEED=${seed})`, () => {
  let p: TestPlatform;
  let admin: string;
  let reader: string;
  const windows: Window[] = [];
  const api = () => request(p.url);
  const as = (token: string) => ({ Authorization: `Bearer ${token}` });

  beforeAll(async () => {
    p = await startTestPlatform();
    admin = (await p.login()).access_token;
    await api()
      .post('/collections')
      .set(as(admin))
      .send(
        collectionWithId('notes', [
          { field: 'title', type: 'string' },
          { field: 'body', type: 'text' },
          { field: 'n', type: 'integer' },
        ]),
      )
      .expect(200);
    const role = (await api().post('/roles').set(as(admin)).send({ name: 'Titles', app_access: true, admin_access: false })).body.data;
    await api()
      .post('/permissions')
      .set(as(admin))
      .send({ role: role.id, collection: 'notes', action: 'read', fields: ['id', 'title', 'n'] })
      .expect(200);
    await api().post('/users').set(as(admin)).send({ email: 'titles@example.com', password: 'titles-password-1', role: role.id, status: 'active' }).expect(200);
    reader = (await p.login('titles@example.com', 'titles-password-1')).access_token;

    // the history: random writes on a few items, each acknowledged write closing a window of known state
    const r = rng(seed);
    const live = new Map<number, Item>();
    let writes = 0;
    // a write of the values an item already has records no revision: count the ones that do
    let revisions = 0;
    let from = Date.now() + 1;
    while (writes < WRITES) {
      await sleep(3);
      const to = Date.now() - 1;
      if (to >= from) windows.push({ from, to, states: new Map([...live].map(([k, v]) => [k, { ...v }])) });
      const pick = [...live.keys()][Math.floor(r() * live.size)];
      const roll = r();
      let res: request.Response;
      let ok = 200;
      if (pick === undefined || (roll < 0.2 && live.size < KEYS)) {
        res = await api()
          .post('/items/notes')
          .set(as(admin))
          .send({ title: `t${writes}`, body: `body ${writes}`, n: writes });
        if (res.status === 200) live.set(res.body.data.id, res.body.data);
        revisions++;
      } else if (roll < 0.3) {
        ok = 204;
        res = await api().delete(`/items/notes/${pick}`).set(as(admin));
        if (res.status === 204) live.delete(pick);
        revisions++;
      } else {
        const change = r() < 0.5 ? { title: r() < 0.2 ? null : `t${writes}` } : { body: `body ${writes}`, n: r() < 0.5 ? null : writes };
        res = await api().patch(`/items/notes/${pick}`).set(as(admin)).send(change);
        if (JSON.stringify(res.body.data) !== JSON.stringify(live.get(pick))) revisions++;
        if (res.status === 200) live.set(pick, res.body.data);
      }
      expect([res.status, seed]).toEqual([ok, seed]);
      writes++;
      from = Date.now() + 1;
    }
    // every write's revision recorded
    await eventually(async () => {
      const c = await api().get('/revisions').query({ 'filter[collection][_eq]': 'notes', meta: 'filter_count', limit: 0 }).set(as(admin));
      return c.body.meta?.filter_count >= revisions;
    }, 60_000);
  }, 120_000);
  afterAll(() => p?.close());

  /** A random instant of a random window, as ISO text (milliseconds, as the revisions' times). */
  function instants(n: number, r: () => number): { at: string; window: Window }[] {
    return Array.from({ length: n }, () => {
      const window = windows[Math.floor(r() * windows.length)]!;
      return { at: new Date(window.from + Math.floor(r() * (window.to - window.from + 1))).toISOString(), window };
    });
  }
  const strip = ({ $meta: _m, ...rest }: Item) => rest;

  it(`one item at ${INSTANTS} random instants: the state the client saw, or 403 where it did not exist`, async () => {
    const r = rng(seed + 1);
    const ids = [...new Set(windows.flatMap((w) => [...w.states.keys()]))];
    for (const { at, window } of instants(INSTANTS, r)) {
      const id = ids[Math.floor(r() * ids.length)]!;
      const res = await api().get(`/items/notes/${id}`).query({ at }).set(as(admin));
      const expected = window.states.get(id);
      if (!expected) {
        expect([at, id, res.status, seed]).toEqual([at, id, 403, seed]);
        continue;
      }
      expect([at, id, res.status, seed]).toEqual([at, id, 200, seed]);
      expect([at, id, strip(res.body.data)]).toEqual([at, id, expected]);
      expect(res.body.data.$meta).toEqual({ revision: expect.any(Number), at: expect.any(String) });
      expect(new Date(res.body.data.$meta.at).getTime()).toBeLessThanOrEqual(new Date(at).getTime());
      // the same state by its revision id
      const byRevision = await api().get(`/items/notes/${id}`).query({ at_revision: res.body.data.$meta.revision }).set(as(admin));
      expect(byRevision.body.data).toEqual(res.body.data);
    }
  }, 300_000);

  it('the whole list at random instants, with filter, sort, paging and fields applied to those states', async () => {
    const r = rng(seed + 2);
    for (const { at, window } of instants(60, r)) {
      const all = [...window.states.values()].sort((a, b) => Number(a.id) - Number(b.id));
      const list = await api().get('/items/notes').query({ at, meta: 'total_count', limit: -1 }).set(as(admin));
      expect([at, list.status]).toEqual([at, 200]);
      expect([at, list.body.data.map(strip)]).toEqual([at, all]);
      expect(list.body.meta.total_count).toBe(all.length);
      const filtered = await api()
        .get('/items/notes')
        .query({ at, filter: JSON.stringify({ n: { _gte: 50 } }), sort: '-n', fields: 'id,n', limit: 2 })
        .set(as(admin));
      const want = all
        .filter((i) => i.n !== null && Number(i.n) >= 50)
        .sort((a, b) => Number(b.n) - Number(a.n) || Number(a.id) - Number(b.id))
        .slice(0, 2)
        .map((i) => ({ id: i.id, n: i.n }));
      expect([at, filtered.body.data.map(strip)]).toEqual([at, want]);
    }
  }, 120_000);

  it('a restricted role sees, past and present, only the fields it may read today', async () => {
    const r = rng(seed + 3);
    const ids = [...new Set(windows.flatMap((w) => [...w.states.keys()]))];
    for (const { at, window } of instants(100, r)) {
      const id = ids[Math.floor(r() * ids.length)]!;
      const one = await api().get(`/items/notes/${id}`).query({ at }).set(as(reader));
      const expected = window.states.get(id);
      if (!expected) expect(one.status).toBe(403);
      else expect(strip(one.body.data)).toEqual({ id: expected.id, title: expected.title, n: expected.n });
      const list = await api().get('/items/notes').query({ at, limit: -1 }).set(as(reader));
      for (const item of list.body.data as Item[]) expect(Object.keys(item).sort()).toEqual(['$meta', 'id', 'n', 'title']);
    }
    const at = windows[windows.length - 1]!.from;
    // naming the field it cannot read is refused, as for the live items
    expect(
      (
        await api()
          .get('/items/notes')
          .query({ at: new Date(at).toISOString(), fields: 'body' })
          .set(as(reader))
      ).status,
    ).toBe(403);
    const byBody = await api()
      .get('/items/notes')
      .query({ at: new Date(at).toISOString(), filter: JSON.stringify({ body: { _nnull: true } }) })
      .set(as(reader));
    expect(byBody.status).toBe(403);
    // and the public role, which reads nothing, is refused
    expect(
      (
        await api()
          .get('/items/notes')
          .query({ at: new Date(at).toISOString() })
      ).status,
    ).toBe(403);
  }, 120_000);

  it('a time before the oldest kept revision is 410 with the earliest time that can be answered', async () => {
    const created = await api().post('/items/notes').set(as(admin)).send({ title: 'old', n: 1 }).expect(200);
    const id = created.body.data.id as number;
    const before = new Date().toISOString();
    await sleep(5);
    await api().patch(`/items/notes/${id}`).set(as(admin)).send({ title: 'newer' }).expect(200);
    const head = await eventually(async () => {
      const res = await api()
        .get('/revisions')
        .query({ 'filter[item][_eq]': String(id), 'filter[collection][_eq]': 'notes', sort: '-id', limit: 1 })
        .set(as(admin));
      return res.body.data?.[0]?.data?.title === 'newer' ? res.body.data[0] : undefined;
    });
    expect((await api().get(`/items/notes/${id}`).query({ at: before }).set(as(admin))).body.data.title).toBe('old');
    // retention keeps each item's newest revision and prunes what came before (as REVISIONS_RETENTION would)
    const db = new Client({ connectionString: p.databaseUrls.revisions });
    await db.connect();
    try {
      await db.query(`DELETE FROM revisions WHERE collection = 'notes' AND item = $1 AND id < $2`, [String(id), head.id]);
      const kept = (await db.query(`SELECT timestamp FROM revisions WHERE id = $1`, [head.id])).rows[0].timestamp as Date;
      const gone = await api().get(`/items/notes/${id}`).query({ at: before }).set(as(admin));
      expect(gone.status).toBe(410);
      expect(gone.body.errors[0].extensions).toEqual({ code: 'HISTORY_PRUNED', earliest: kept.toISOString() });
      const list = await api().get('/items/notes').query({ at: before }).set(as(admin));
      expect([list.status, list.body.errors[0].extensions.earliest]).toEqual([410, kept.toISOString()]);
      // from the kept revision on, the answer is there
      expect((await api().get(`/items/notes/${id}`).query({ at: kept.toISOString() }).set(as(admin))).body.data.title).toBe('newer');
    } finally {
      await db.end();
    }
  });

  it('refuses malformed times and both selectors at once', async () => {
    expect((await api().get('/items/notes/1').query({ at: 'yesterday' }).set(as(admin))).status).toBe(400);
    expect((await api().get('/items/notes/1').query({ at: new Date().toISOString(), at_revision: '1' }).set(as(admin))).status).toBe(400);
  });
});
