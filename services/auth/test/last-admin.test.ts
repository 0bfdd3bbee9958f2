import request from 'supertest';
import { Client } from 'pg';
import { untilLockWaiters } from '@vellum/testing';
import { adminHarness, loginAs, type Harness } from './helpers';

// No write leaves a platform without an active administrator (Directus: 422 "Cannot remove the last admin user from
// the system"): one admin could suspend, demote or delete themselves, or demote or delete their role, and nobody
// could administer the platform again. Two writes at once cannot each leave the other's user as the last one.
let h: Harness;
let admin: string;
let other: Client;
let adminId: string;
let adminRole: string;
let editorRole: string;
let n = 0;
const auth = () => ({ Authorization: `Bearer ${admin}` });
const api = () => request(h.app);

beforeAll(async () => {
  ({ h, admin } = await adminHarness());
  other = new Client({ connectionString: h.db.url });
  await other.connect();
  const me = await api().get('/users/me').set(auth()).expect(200);
  [adminId, adminRole] = [me.body.data.id, me.body.data.role];
  editorRole = (await api().post('/roles').set(auth()).send({ name: 'Editor' }).expect(200)).body.data.id;
});
afterAll(async () => {
  await other.end();
  await h.close();
});

const activeAdmins = async () =>
  (await other.query(`SELECT count(*)::int AS n FROM users u JOIN roles r ON r.id = u.role_id WHERE u.status = 'active' AND r.admin_access`)).rows[0].n;

/** Another active administrator, logged in once (so they have a session). */
async function anotherAdmin(): Promise<string> {
  const email = `admin${++n}@example.com`;
  const r = await api().post('/users').set(auth()).send({ email, password: 'password-123456', role: adminRole }).expect(200);
  await loginAs(h.app, email, 'password-123456');
  return r.body.data.id;
}

it.each([
  ['suspending the last admin', () => api().patch(`/users/${adminId}`).send({ status: 'suspended' })],
  ['archiving the last admin', () => api().patch(`/users/${adminId}`).send({ status: 'archived' })],
  ['taking their role away', () => api().patch(`/users/${adminId}`).send({ role: null })],
  ['moving them to a role without admin access', () => api().patch(`/users/${adminId}`).send({ role: editorRole })],
  ['deleting them', () => api().delete(`/users/${adminId}`)],
  ["taking the admin role's admin access away", () => api().patch(`/roles/${adminRole}`).send({ admin_access: false })],
  ['deleting the admin role', () => api().delete(`/roles/${adminRole}`)],
  ['deleting the admin role, its users moved to another', () => api().delete(`/roles/${adminRole}`).query({ move_users_to: editorRole })],
])('%s: 422 UNPROCESSABLE_CONTENT, nothing changed', async (_name, write) => {
  const r = await write().set(auth());
  expect(r.status).toBe(422);
  expect(r.body.errors[0]).toMatchObject({ extensions: { code: 'UNPROCESSABLE_CONTENT' } });
  expect(r.body.errors[0].message).toContain('last admin');
  expect(await activeAdmins()).toBe(1);
  const me = await api().get('/users/me').set(auth()).expect(200);
  expect(me.body.data).toMatchObject({ status: 'active', role: adminRole });
});

it('with another active admin, one may be suspended; other writes of the last one pass', async () => {
  const second = await anotherAdmin();
  await api().patch(`/users/${second}`).set(auth()).send({ status: 'suspended' }).expect(200);
  await api().patch(`/users/${adminId}`).set(auth()).send({ first_name: 'Ada', status: 'active' }).expect(200);
  await api().patch(`/roles/${adminRole}`).set(auth()).send({ name: 'Admins', admin_access: true }).expect(200);
  expect(await activeAdmins()).toBe(1);
});

it('two admins suspended at once: one is, the other write answers 422', async () => {
  const [a, b] = [await anotherAdmin(), await anotherAdmin()];
  // the first admin steps back, leaving a and b as the only active admins
  await api().patch(`/users/${adminId}`).set(auth()).send({ role: editorRole }).expect(200);
  const token = (await loginAs(h.app, `admin${n}@example.com`, 'password-123456')).body.data.access_token as string;
  // both writes wait (for a's and b's sessions), then go on together
  await other.query('BEGIN');
  await other.query('SELECT 1 FROM sessions WHERE user_id = ANY($1::uuid[]) FOR UPDATE', [[a, b]]);
  const writes = [a, b].map((id) =>
    api()
      .patch(`/users/${id}`)
      .set({ Authorization: `Bearer ${token}` })
      .send({ status: 'suspended' })
      .then((r) => r.status),
  );
  try {
    await untilLockWaiters(async (t) => ({ rows: await h.sql(t) }), 2);
  } finally {
    await other.query('ROLLBACK');
  }
  expect((await Promise.all(writes)).sort()).toEqual([200, 422]);
  expect(await activeAdmins()).toBe(1);
});
