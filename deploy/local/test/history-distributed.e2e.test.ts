import type { ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { freePort, natsServerBinary, waitForPing } from '@vellum/testing';
import { startDistributedProcess, stopDistributedProcess } from './distributed-process';
import { collectionWithId, eventually, FAST_LOGINS } from './platform-harness';

// The history routes in `npm run start:distributed` (one process per service): the gateway sends a read of an item
// as it was to the revisions process and a restore to the items process, which reads the revision from the
// revisions process over HTTP (REVISIONS_URL) with the caller's credentials.
const run = natsServerBinary() ? describe : describe.skip;

run('distributed topology: items as they were and restore across processes', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'vellum-dist-history-'));
  chmodSync(dataDir, 0o755);
  let child: ChildProcess;
  let port: number;
  let out = '';

  beforeAll(async () => {
    const [p, dbPort] = [await freePort(), await freePort()];
    port = p;
    child = startDistributedProcess(dataDir, port, {
      EMBEDDED_DB_PORT: String(dbPort),
      ADMIN_PASSWORD: 'dist-admin-password-1',
      ...FAST_LOGINS,
      RATE_LIMITER_ENABLED: 'false',
    });
    child.stdout?.on('data', (d) => (out += d));
    child.stderr?.on('data', (d) => (out += d));
    await waitForPing(port, 150_000);
  }, 180_000);

  afterAll(async () => {
    await stopDistributedProcess(child, dataDir);
    rmSync(dataDir, { recursive: true, force: true });
  }, 90_000);

  it('answers ?at= from the revisions process and restores through the items process', async () => {
    const api = request(`http://127.0.0.1:${port}`);
    const login = await api.post('/auth/login').send({ email: 'admin@example.com', password: 'dist-admin-password-1' });
    expect([login.status, login.status === 200 ? '' : out.slice(-2000)]).toEqual([200, '']);
    const as = { Authorization: `Bearer ${login.body.data.access_token as string}` };
    await api
      .post('/collections')
      .set(as)
      .send(collectionWithId('docs', [{ field: 'title', type: 'string' }]))
      .expect(200);
    const id = (await api.post('/items/docs').set(as).send({ title: 'one' }).expect(200)).body.data.id as number;
    const between = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 5));
    await api.patch(`/items/docs/${id}`).set(as).send({ title: 'two' }).expect(200);
    const revs = await eventually(async () => {
      const r = await api.get('/revisions').query({ 'filter[collection][_eq]': 'docs', sort: 'id' }).set(as);
      return r.body.data?.length === 2 ? (r.body.data as { id: number }[]) : undefined;
    }, 20_000);

    const past = await api.get(`/items/docs/${id}`).query({ at: between }).set(as).expect(200);
    expect(past.body.data).toEqual({ id, title: 'one', $meta: { revision: revs[0]!.id, at: expect.any(String) } });
    expect((await api.get(`/items/docs/${id}`).set(as).expect(200)).body.data).toEqual({ id, title: 'two' });

    const restored = await api.post(`/revisions/${revs[0]!.id}/restore`).set(as).expect(200);
    expect(restored.body.data).toMatchObject({ action: 'update', changed_fields: ['title'], applied: true });
    expect((await api.get(`/items/docs/${id}`).set(as).expect(200)).body.data).toEqual({ id, title: 'one' });
    // without credentials the revisions process refuses the revision: nothing is written
    expect((await api.post(`/revisions/${revs[1]!.id}/restore`)).status).toBe(403);
    expect((await api.get(`/items/docs/${id}`).set(as).expect(200)).body.data.title).toBe('one');
  }, 60_000);
});
