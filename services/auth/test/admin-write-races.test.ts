import request from 'supertest';
import { Client } from 'pg';
import { untilLockWaiters } from '@vellum/testing';
import { randomUUID } from 'node:crypto';
import { trustDevice } from '../src/domain/devices.use-case';
import { adminHarness, loginAs, type Harness } from './helpers';

// An administrator's write of a user (suspend, password, delete) locks the user's sessions before the user's row,
// the order a refresh takes them (its session, then the user). It took the user first: a refresh and a suspend of
// the same user deadlocked every time (PostgreSQL aborts one after a second: a 500), and of two deletes of one user
// the second answered 500 (its row gone under it) instead of 403. And a login whose user is deleted just after its
// session was written answered 500 (its device's row refused by the foreign key) instead of 401; a role or
// permission deleted while an administrator changed or deleted it (or unlocked a user) answered 500 instead of 403.
let h: Harness;
let admin: string;
let other: Client;
let n = 0;
const auth = () => ({ Authorization: `Bearer ${admin}` });

beforeAll(async () => {
  ({ h, admin } = await adminHarness());
  other = new Client({ connectionString: h.db.url });
  await other.connect();
});
afterAll(async () => {
  await other.end();
  await h.close();
});

/** A user with one session (logged in once). */
async function userWithSession(): Promise<string> {
  const email = `user${++n}@example.com`;
  const r = await request(h.app).post('/users').set(auth()).send({ email, password: 'password-123456' }).expect(200);
  await loginAs(h.app, email, 'password-123456');
  return r.body.data.id;
}

/** Holds the user's sessions as a refresh does (its first step), runs `writes`, then lets them go on. */
async function withSessionsHeld<T>(id: string, writers: number, writes: () => Promise<T>, meanwhile: () => Promise<void> = async () => {}): Promise<T> {
  await other.query('BEGIN');
  await other.query('SELECT 1 FROM sessions WHERE user_id = $1 FOR UPDATE', [id]);
  const pending = writes();
  try {
    await untilLockWaiters(async (t) => ({ rows: await h.sql(t) }), writers);
    await meanwhile();
  } finally {
    await other.query('ROLLBACK');
  }
  return pending;
}

/** `write` of user `id` waits for its sessions (held) without holding the user's row, which a refresh takes next. */
async function sessionsFirst(id: string, write: () => Promise<request.Response>): Promise<request.Response> {
  return withSessionsHeld(id, 1, write, async () => {
    // NOWAIT fails at once (55P03) if the write took the user's row before the sessions
    await other.query('SELECT 1 FROM users WHERE id = $1 FOR NO KEY UPDATE NOWAIT', [id]);
  });
}

it('a suspend waits for a refresh’s session without holding the user’s row (which the refresh takes next)', async () => {
  const id = await userWithSession();
  const r = await sessionsFirst(id, async () => request(h.app).patch(`/users/${id}`).set(auth()).send({ status: 'suspended' }));
  expect(r.status).toBe(200);
  expect(await h.sql('SELECT id FROM sessions WHERE user_id = $1', [id])).toEqual([]);
});

it('a password change by an administrator takes the same order', async () => {
  const id = await userWithSession();
  expect((await sessionsFirst(id, async () => request(h.app).patch(`/users/${id}`).set(auth()).send({ password: 'password-654321' }))).status).toBe(200);
});

it('a password reset takes the same order', async () => {
  const id = await userWithSession();
  const [user] = await h.sql<{ email: string; password: string }>('SELECT email, password FROM users WHERE id = $1', [id]);
  const token = h.built.ctx.tokens.signReset({ id, email: user!.email, password: user!.password }, 60_000, new Date());
  const r = await sessionsFirst(id, async () => request(h.app).post('/auth/password/reset').send({ token, password: 'password-reset-1' }));
  expect(r.status).toBe(204);
});

it('of two concurrent deletes of one user, one answers 204 and the other 403', async () => {
  const id = await userWithSession();
  const answers = await withSessionsHeld(id, 2, () =>
    Promise.all(
      [0, 1].map(() =>
        request(h.app)
          .delete(`/users/${id}`)
          .set(auth())
          .then((x) => x),
      ),
    ),
  );
  expect(answers.map((a) => a.status).sort()).toEqual([204, 403]);
  expect(await h.sql('SELECT id FROM users WHERE id = $1', [id])).toEqual([]);
});

it('a login whose user was deleted before its device was trusted is refused as invalid credentials, not a 500', async () => {
  const client = { ip: '127.0.0.1', userAgent: 'test', origin: null };
  await expect(trustDevice(h.built.ctx, randomUUID(), undefined, 'login', client, new Date())).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });
});

describe('a user, role or permission deleted while an administrator writes it', () => {
  /** Deletes `table`'s row `id` in a transaction of its own, runs `write` (which waits for the row), then commits. */
  async function deletedUnder(table: string, id: string | number, write: () => Promise<request.Response>) {
    await other.query('BEGIN');
    await other.query(`DELETE FROM ${table} WHERE id = $1`, [id]);
    const pending = write();
    try {
      await untilLockWaiters(async (t) => ({ rows: await h.sql(t) }));
    } finally {
      await other.query('COMMIT');
    }
    return pending;
  }
  const newRole = async (name: string) => (await request(h.app).post('/roles').set(auth()).send({ name }).expect(200)).body.data.id as string;

  it('a role’s change or delete answers 403, as for a missing role', async () => {
    const a = await newRole('gone-a');
    expect(
      (
        await deletedUnder('roles', a, () =>
          request(h.app)
            .patch(`/roles/${a}`)
            .set(auth())
            .send({ name: 'renamed' })
            .then((x) => x),
        )
      ).status,
    ).toBe(403);
    const b = await newRole('gone-b');
    expect(
      (
        await deletedUnder('roles', b, () =>
          request(h.app)
            .delete(`/roles/${b}`)
            .set(auth())
            .then((x) => x),
        )
      ).status,
    ).toBe(403);
  });

  it('an invitation, a user or a permission naming a role deleted meanwhile answers 400 "role does not exist"', async () => {
    const writes = [
      (role: string) =>
        request(h.app)
          .post('/users/invite')
          .set(auth())
          .send({ email: `inv-${role}@example.com`, role }),
      (role: string) =>
        request(h.app)
          .post('/users')
          .set(auth())
          .send({ email: `u-${role}@example.com`, password: 'password-123456', role }),
      (role: string) => request(h.app).post('/permissions').set(auth()).send({ role, collection: 'c', action: 'read' }),
    ];
    for (const [i, write] of writes.entries()) {
      const role = await newRole(`doomed-${i}`);
      const r = await deletedUnder('roles', role, () => write(role).then((x) => x));
      expect([i, r.status, r.body.errors?.[0]?.message]).toEqual([i, 400, 'Invalid payload. "role" does not exist']); // the invitation's was a 500
    }
    expect((await h.sql(`SELECT 1 FROM users WHERE email LIKE 'inv-%' OR email LIKE 'u-%'`)).length).toBe(0);
  });

  it('a permission’s change or delete answers 403, as for a missing permission', async () => {
    const role = await newRole('perms');
    const grant = () =>
      request(h.app)
        .post('/permissions')
        .set(auth())
        .send({ role, collection: 'articles', action: 'read', fields: ['*'] });
    const p1 = (await grant().expect(200)).body.data.id as number;
    const changed = await deletedUnder('permissions', p1, () =>
      request(h.app)
        .patch(`/permissions/${p1}`)
        .set(auth())
        .send({ fields: ['id'] })
        .then((x) => x),
    );
    expect(changed.status).toBe(403);
    const p2 = (await grant().expect(200)).body.data.id as number;
    expect(
      (
        await deletedUnder('permissions', p2, () =>
          request(h.app)
            .delete(`/permissions/${p2}`)
            .set(auth())
            .then((x) => x),
        )
      ).status,
    ).toBe(403);
  });

  it('an unlock answers 403, as for a missing user', async () => {
    const id = await userWithSession();
    expect(
      (
        await deletedUnder('users', id, () =>
          request(h.app)
            .post(`/users/${id}/unlock`)
            .set(auth())
            .then((x) => x),
        )
      ).status,
    ).toBe(403);
  });
});
