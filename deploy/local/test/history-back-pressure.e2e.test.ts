import request from 'supertest';
import { Client } from 'pg';
import { collectionWithId, eventually, startTestPlatform, type TestPlatform } from './platform-harness';

// Issue 41.3 through the embedded platform: the revisions recorder is paused (its `activity` table locked against
// inserts from another connection); item writes are held, then 503 + Retry-After, instead of the backlog growing
// for as long as the load lasts; once the recorder resumes, every acknowledged write gets its revision.
const LIMIT_MS = 300;
const WAIT_MS = 500;

describe('back-pressure from the history, embedded platform', () => {
  let p: TestPlatform;
  let admin: string;
  beforeAll(async () => {
    p = await startTestPlatform({ overrides: { HISTORY_LAG_LIMIT: `${LIMIT_MS}ms`, HISTORY_LAG_WAIT: `${WAIT_MS}ms` } });
    admin = (await p.login()).access_token;
  }, 60_000);
  afterAll(() => p?.close());

  const as = (token: string) => ({ Authorization: `Bearer ${token}` });

  it('a paused recorder: writes are held and refused, the backlog stops growing; resumed, all is recorded', async () => {
    const api = request(p.url);
    await api
      .post('/collections')
      .set(as(admin))
      .send(collectionWithId('notes', [{ field: 'n', type: 'integer' }]))
      .expect(200);
    const id = (await api.post('/items/notes').set(as(admin)).send({ n: 0 }).expect(200)).body.data.id;
    const items = new Client({ connectionString: p.databaseUrls.items });
    const revisions = new Client({ connectionString: p.databaseUrls.revisions });
    await Promise.all([items.connect(), revisions.connect()]);
    try {
      await eventually(async () => Number((await items.query(`SELECT count(*) n FROM outbox WHERE published_at IS NULL`)).rows[0].n) === 0);
      await revisions.query('BEGIN');
      await revisions.query('LOCK TABLE activity IN EXCLUSIVE MODE'); // reads go on, the recorder's inserts wait
      const statuses: number[] = [];
      const until = Date.now() + 2500;
      for (let k = 1; Date.now() < until; k++) {
        const r = await api.patch(`/items/notes/${id}`).set(as(admin)).send({ n: k });
        statuses.push(r.status);
        if (r.status === 503) {
          expect(r.body.errors[0].extensions).toMatchObject({ code: 'SERVICE_UNAVAILABLE', service: 'revisions' });
          expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
        }
      }
      const accepted = statuses.filter((s) => s === 200).length;
      expect(statuses.filter((s) => s === 503).length).toBeGreaterThanOrEqual(2);
      // once refused, nothing more is accepted while the recorder stays paused: the backlog is bounded
      expect(statuses.slice(statuses.indexOf(503)).every((s) => s === 503)).toBe(true);
      const backlog = Number((await items.query(`SELECT count(*) n FROM outbox WHERE published_at IS NULL`)).rows[0].n);
      expect(backlog).toBeLessThanOrEqual(accepted);
      await revisions.query('COMMIT'); // the recorder resumes
      // every acknowledged write gets its revision, and writes are accepted again
      await eventually(
        async () => Number((await revisions.query(`SELECT count(*) n FROM revisions WHERE collection = 'notes'`)).rows[0].n) === 1 + accepted,
        20_000,
      );
      await eventually(async () => (await api.patch(`/items/notes/${id}`).set(as(admin)).send({ n: -1 })).status === 200, 10_000);
    } finally {
      await revisions.query('ROLLBACK').catch(() => undefined);
      await Promise.all([items.end(), revisions.end()]);
    }
  }, 60_000);
});
