import request from 'supertest';
import { errorCode } from '@vellum/testing';
import { HistoryBackPressure } from '../src/domain/history-back-pressure';
import { harness, type Harness } from './helpers';

// Issue 41.3: while the history is behind (here: no relay runs, so no change is ever recorded — the recorder is
// paused), writes are held up to HISTORY_LAG_WAIT and then refused with 503 + Retry-After, so the backlog stops
// growing; once the history catches up, held writes go through.
const LIMIT_MS = 300;
// a held write's wait: long enough that a loaded machine's event loop wakes it in time once the history caught up
const WAIT_MS = 1000;
let h: Harness;
let bp: HistoryBackPressure;
const auth = () => ({ Authorization: `Bearer ${h.admin}` });

beforeAll(async () => {
  h = await harness({ history: (pool) => (bp = new HistoryBackPressure(pool, { limitMs: LIMIT_MS, waitMs: WAIT_MS, sampleMs: 20 })) });
  await request(h.app)
    .post('/collections')
    .set(auth())
    .send({ collection: 'notes', fields: [{ field: 'n', type: 'integer' }] })
    .expect(200);
  await recordAll(); // the collection's own revision
});
afterAll(async () => {
  bp.stop();
  await h.close();
});

const unpublished = async () => Number((await h.pool.query(`SELECT count(*) AS n FROM outbox WHERE published_at IS NULL`)).rows[0].n);
const recordAll = () => h.pool.query(`UPDATE outbox SET published_at = now() WHERE published_at IS NULL`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('back-pressure from the history', () => {
  it('a paused recorder: writes are held, then 503 with Retry-After, and the backlog stops growing', async () => {
    const id = (await request(h.app).post('/items/notes').set(auth()).send({ n: 0 }).expect(200)).body.data.id;
    // 1.5 s of writes (and on until two were refused, 20 s at most), one after the other, with nothing recorded:
    // without back-pressure every one is a 200 and adds to the backlog; with it, the writes after the first LIMIT_MS
    // are held WAIT_MS each and refused
    const statuses: number[] = [];
    const until = Date.now() + 1500;
    const refused = () => statuses.filter((s) => s === 503).length;
    for (let k = 1; (Date.now() < until || refused() < 2) && Date.now() < until + 20_000; k++) {
      const r = await request(h.app).patch(`/items/notes/${id}`).set(auth()).send({ n: k });
      statuses.push(r.status);
      if (r.status === 503) {
        expect(errorCode(r)).toBe('SERVICE_UNAVAILABLE');
        expect(r.body.errors[0].extensions).toMatchObject({ service: 'revisions', reason: expect.stringMatching(/behind/) });
        expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      }
    }
    expect(statuses).toContain(503);
    expect(statuses.filter((s) => s === 503).length).toBeGreaterThanOrEqual(2);
    // a refused write wrote nothing: the backlog is what was accepted before the limit, not one row per request
    expect(await unpublished()).toBe(statuses.filter((s) => s === 200).length + 1);
    // and once refused, nothing more is accepted while the history stays behind
    expect(statuses.slice(statuses.indexOf(503)).every((s) => s === 503)).toBe(true);
  });

  it('a held write goes through as soon as the history catches up', async () => {
    await sleep(LIMIT_MS); // still nothing recorded: behind
    const id = (await h.pool.query(`SELECT id FROM content.notes LIMIT 1`)).rows[0].id;
    const answer = request(h.app)
      .patch(`/items/notes/${id}`)
      .set(auth())
      .send({ n: -1 })
      .then((r) => ({ r, at: Date.now() }));
    await sleep(100);
    const resumed = Date.now();
    await recordAll(); // the recorder resumes
    const { r, at } = await answer;
    expect(r.status).toBe(200);
    expect(at).toBeGreaterThanOrEqual(resumed); // it was held until then
    expect(at - resumed).toBeLessThan(WAIT_MS);
  });
});

describe('the lag sampling', () => {
  it('sends no statement while no write comes, and samples again from the next write on', async () => {
    let statements = 0;
    const counting = { query: (...a: unknown[]) => (statements++, (h.pool.query as (...x: unknown[]) => unknown)(...a)) };
    const sampler = new HistoryBackPressure(counting as unknown as typeof h.pool, { limitMs: 60_000, waitMs: 100, sampleMs: 10 });
    try {
      expect(sampler.admit()).toBeUndefined();
      await sleep(300);
      expect(statements).toBeGreaterThan(5); // sampling while writes come
      await sleep(1200); // no write for over a second
      const idle = statements;
      await sleep(300);
      expect(statements).toBe(idle);
      sampler.admit();
      await sleep(200);
      expect(statements).toBeGreaterThan(idle + 5);
    } finally {
      sampler.stop();
    }
  });
});
