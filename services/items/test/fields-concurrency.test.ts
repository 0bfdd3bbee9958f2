import request from 'supertest';
import { harness, type Harness } from './helpers';

// Field changes racing item traffic: a long reader holding the table, writes that loaded the definition before a drop.
let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

const bearer = (t: string) => ({ Authorization: `Bearer ${t}` });
const api = () => ({
  get: (url: string) => request(h.app).get(url).set(bearer(h.admin)),
  post: (url: string, body: object) => request(h.app).post(url).set(bearer(h.admin)).send(body),
});
const columns = async (table: string) =>
  (await h.pool.query(`SELECT column_name FROM information_schema.columns WHERE table_schema = 'content' AND table_name = $1`, [table])).rows;

describe('field changes under concurrent item traffic', () => {
  beforeAll(async () => {
    await api()
      .post('/collections', { collection: 'busy', fields: [{ field: 'title', type: 'string' }] })
      .expect(200);
    await api().post('/items/busy', { title: 'a' }).expect(200);
  });

  it('a change waiting on a long reader gives up after the lock timeout (503, nothing applied) instead of stalling the collection', async () => {
    const reader = await h.pool.connect();
    try {
      await reader.query('BEGIN');
      await reader.query('SELECT count(*) FROM content.busy');
      const started = Date.now();
      const r = await api().post('/fields/busy', { field: 'late', type: 'integer', schema: { default_value: 1 } });
      expect([r.status, r.body.errors[0].extensions.code]).toEqual([503, 'SERVICE_UNAVAILABLE']);
      expect(Date.now() - started).toBeLessThan(15_000);
    } finally {
      await reader.query('COMMIT');
      reader.release();
    }
    expect((await columns('busy')).map((c) => c.column_name)).not.toContain('late');
    expect((await api().get('/fields/busy/late')).status).toBe(403);
    expect((await api().post('/fields/busy', { field: 'late', type: 'integer', schema: { default_value: 1 } })).status).toBe(200);
  }, 30_000);

  it('writes that waited on a field drop run with the new definition (no 500)', async () => {
    await api()
      .post('/collections', {
        collection: 'race',
        fields: [
          { field: 'a', type: 'string' },
          { field: 'b', type: 'string' },
        ],
      })
      .expect(200);
    // the drop's transaction as fields.repository.ts runs it, held open while a write and a read arrive
    const c = await h.pool.connect();
    try {
      await c.query('BEGIN');
      await c.query(`SELECT 1 FROM collections WHERE name = 'race' FOR UPDATE`);
      await c.query(`ALTER TABLE content.race DROP COLUMN b`);
      await c.query(`DELETE FROM fields WHERE collection = 'race' AND field = 'b'`);
      const write = api()
        .post('/items/race', { a: 'x', b: 'y' })
        .then((r) => r);
      const ok = api()
        .post('/items/race', { a: 'z' })
        .then((r) => r);
      await new Promise((r) => setTimeout(r, 300));
      await c.query('COMMIT');
      const [w, o] = await Promise.all([write, ok]);
      expect([w.status, w.body.errors?.[0]?.extensions?.code]).toEqual([400, 'INVALID_PAYLOAD']);
      expect([o.status, o.body.data]).toEqual([200, { id: expect.any(Number), a: 'z' }]);
    } finally {
      c.release();
    }
    expect((await api().get('/items/race')).body.data).toEqual([{ id: expect.any(Number), a: 'z' }]);
  });
});
