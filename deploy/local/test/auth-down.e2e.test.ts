import request from 'supertest';
import { collectionWithId, startTestPlatform, eventually, type TestPlatform } from './platform-harness';

// Issue 8, point 3: the revisions service (and the gateway in front of it) keep answering from their last copy
// of the access rules and keys while the auth service is down — the same filtered answer as before, not an error.
describe('revisions while the auth service is down', () => {
  let p: TestPlatform;
  beforeAll(async () => {
    p = await startTestPlatform();
  });
  afterAll(() => p?.close());

  const as = (token: string) => ({ Authorization: `Bearer ${token}` });

  it('keeps filtering by the last copy of the rules, with tokens verified from the cached keys', async () => {
    const api = request(p.url);
    const admin = (await p.login()).access_token;
    const notes = collectionWithId('notes', [
      { field: 'title', type: 'string' },
      { field: 'secret', type: 'string' },
    ]);
    await api.post('/collections').set(as(admin)).send(notes).expect(200);
    await api.post('/collections').set(as(admin)).send(collectionWithId('hidden')).expect(200);
    await api
      .post('/items/notes')
      .set(as(admin))
      .send([
        { title: 'a', secret: 's1' },
        { title: 'b', secret: 's2' },
      ])
      .expect(200);
    await api.post('/items/hidden').set(as(admin)).send({}).expect(200);

    const role = (await api.post('/roles').set(as(admin)).send({ name: 'Notes reader', app_access: true, admin_access: false })).body.data;
    await api
      .post('/permissions')
      .set(as(admin))
      .send({ role: role.id, collection: 'notes', action: 'read', fields: ['id', 'title'] })
      .expect(200);
    await api.post('/users').set(as(admin)).send({ email: 'notes@example.com', password: 'notes-password-1', role: role.id, status: 'active' }).expect(200);
    const reader = (await p.login('notes@example.com', 'notes-password-1')).access_token;

    const read = (token: string) => api.get('/revisions').query({ fields: 'collection,data', sort: 'id', meta: '*' }).set(as(token));
    const before = await eventually(async () => {
      const r = await read(reader);
      return r.status === 200 && r.body.data.length === 2 ? r.body : undefined;
    });
    expect(before.data).toEqual([
      { collection: 'notes', data: { id: 1, title: 'a' } },
      { collection: 'notes', data: { id: 2, title: 'b' } },
    ]);
    expect(before.meta).toEqual({ total_count: 2, filter_count: 2 });
    const adminBefore = (await read(admin)).body;

    await p.services.auth.stop();
    // auth really is down: its routes answer 503 through the gateway
    expect((await api.post('/auth/login').send({ email: 'notes@example.com', password: 'notes-password-1' })).status).toBe(503);

    const during = await read(reader);
    expect(during.status).toBe(200);
    expect(during.body).toEqual(before);
    const adminDuring = await read(admin);
    expect(adminDuring.status).toBe(200);
    expect(adminDuring.body).toEqual(adminBefore);
    expect(adminDuring.body.data.map((r: { collection: string }) => r.collection)).toContain('hidden');
    // a forged token is still refused (verification did not fall open)
    expect((await read(`${reader.slice(0, -4)}AAAA`)).status).toBe(403);
  });
});
