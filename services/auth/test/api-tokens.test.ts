import { createHash } from 'node:crypto';
import { Writable } from 'node:stream';
import request from 'supertest';
import { apiTokenEntrySchema, auditEventSchema } from '@vellum/contracts';
import { createLogger } from '@vellum/logger';
import { fixedClock, type FixedClock } from '@vellum/testing';
import { ADMIN, code, harness, loginAs, type Harness } from './helpers';

// Issue 14.2/14.3 in the auth service against real PostgreSQL: API tokens hashed, scoped, expiring; their map
// entries (what the gateway and services verify against) and audit events go out through the outbox.
let h: Harness;
let clock: FixedClock;
let admin: string;
const logs: string[] = [];
/** Every response body of the test, to search for secrets. */
const bodies: string[] = [];
beforeAll(async () => {
  clock = fixedClock(new Date());
  const sink = new Writable({
    write(chunk, _enc, done) {
      logs.push(String(chunk));
      done();
    },
  });
  h = await harness({}, { clock, logger: createLogger({ name: 'auth-test', level: 'trace', destination: sink }) });
  admin = (await loginAs(h.app)).body.data.access_token;
});
afterAll(() => h.close());

const record = (r: request.Response) => (bodies.push(r.text ?? ''), r);
const as = (token: string) => ({
  get: async (p: string) => record(await request(h.app).get(p).set('Authorization', `Bearer ${token}`)),
  del: async (p: string) => record(await request(h.app).delete(p).set('Authorization', `Bearer ${token}`)),
  post: async (p: string, b: object) => record(await request(h.app).post(p).set('Authorization', `Bearer ${token}`).send(b)),
  patch: async (p: string, b: object) => record(await request(h.app).patch(p).set('Authorization', `Bearer ${token}`).send(b)),
});
const inDays = (d: number) => new Date(clock.now().getTime() + d * 86_400_000).toISOString();
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
/** The latest map entry published for a token (null = removed). */
const entryOf = async (secret: string) =>
  (
    await h.sql<{ payload: unknown }>(`SELECT payload FROM outbox WHERE destination = 'vellum_api_tokens' AND subject = $1 ORDER BY seq DESC LIMIT 1`, [
      sha256(secret),
    ])
  )[0]?.payload;
const audits = (action: string, item: string) =>
  h.sql<{ payload: unknown }>(`SELECT payload FROM outbox WHERE subject = $1 AND payload->>'item' = $2`, [`items.vellum_api_tokens.${action}`, item]);
const secrets: string[] = [];

async function user(email: string, role: string | null, password = 'token-user-password') {
  const u = await as(admin).post('/users', { email, password, role });
  expect(u.status).toBe(200);
  const login = await request(h.app).post('/auth/login').send({ email, password });
  return { id: u.body.data.id as string, token: login.body.data.access_token as string };
}
async function role(name: string, perms: [string, string, string[]][], extra: object = {}) {
  const r = await as(admin).post('/roles', { name, ...extra });
  for (const [collection, action, fields] of perms) await as(admin).post('/permissions', { role: r.body.data.id, collection, action, fields });
  return r.body.data.id as string;
}

describe('API tokens', () => {
  it('creates a vlm_ token shown once, stored as its SHA-256 only, usable as a bearer token and ?access_token', async () => {
    const created = await as(admin).post('/users/me/tokens', { name: 'ci', expires: inDays(30) });
    expect(created.status).toBe(200);
    const { token, ...shown } = created.body.data;
    secrets.push(token);
    expect(token).toMatch(/^vlm_[0-9a-f]{8}_[A-Za-z0-9_-]{43}$/);
    expect(shown).toMatchObject({ name: 'ci', prefix: token.slice(0, 12), role: null, static: false, last_used: null, expires: inDays(30) });
    const rows = await h.sql<Record<string, unknown>>(`SELECT * FROM api_tokens WHERE id = $1`, [shown.id]);
    expect(rows[0].token_hash).toBe(sha256(token));
    expect(JSON.stringify(rows)).not.toContain(token.slice(13));

    const me = await as(token).get('/users/me');
    expect(me.status).toBe(200);
    expect(me.body.data.email).toBe(ADMIN.email);
    expect(record(await request(h.app).get(`/users/me?access_token=${token}`)).status).toBe(200);
    const list = await as(admin).get('/users/me/tokens');
    expect(list.body.data).toEqual([expect.objectContaining({ id: shown.id, name: 'ci', prefix: shown.prefix })]);
    expect(list.body.data[0].token).toBeUndefined();

    // its map entry: whose it is, its role, its expiry; never the secret
    const entry = apiTokenEntrySchema.parse(await entryOf(token));
    expect(entry).toMatchObject({ id: shown.id, admin: true, app: true, expires_at: inDays(30) });
    expect(auditEventSchema.parse((await audits('token_created', shown.id))[0].payload).actor.user).toBe(entry.user);
  });

  it('requires an expiry in the future and within API_TOKEN_MAX_TTL; validates the body', async () => {
    expect(code(await as(admin).post('/users/me/tokens', { name: 'x' }))).toBe('INVALID_PAYLOAD');
    expect(code(await as(admin).post('/users/me/tokens', { name: 'x', expires: inDays(366) }))).toBe('INVALID_PAYLOAD');
    expect(code(await as(admin).post('/users/me/tokens', { name: 'x', expires: inDays(-1) }))).toBe('INVALID_PAYLOAD');
    expect(code(await as(admin).post('/users/me/tokens', { name: 'x', expires: 'tomorrow' }))).toBe('INVALID_PAYLOAD');
    expect(code(await as(admin).post('/users/me/tokens', { name: 'x', expires: inDays(1), secret: 'mine' }))).toBe('INVALID_PAYLOAD');
  });

  it('an expired token → 401 TOKEN_EXPIRED; an unknown one → 401 INVALID_CREDENTIALS', async () => {
    const t = (await as(admin).post('/users/me/tokens', { name: 'short', expires: inDays(1) })).body.data.token;
    secrets.push(t);
    expect((await as(t).get('/users/me')).status).toBe(200);
    clock.advance(86_400_000 + 1000);
    try {
      const r = await as(t).get('/users/me');
      expect([r.status, code(r)]).toEqual([401, 'TOKEN_EXPIRED']);
    } finally {
      clock.advance(-(86_400_000 + 1000));
    }
    const unknown = await as('vlm_00000000_nope-nope-nope').get('/users/me');
    expect([unknown.status, code(unknown)]).toEqual([401, 'INVALID_CREDENTIALS']);
  });

  it('a narrower role: never more than the user; the token has exactly that role’s rights', async () => {
    const editor = await role('Editor', [
      ['articles', 'read', ['title', 'body']],
      ['articles', 'update', ['title']],
    ]);
    const reader = await role('Reader', [['articles', 'read', ['title']]]);
    const wider = await role('Wider', [['articles', 'read', ['title', 'secret_notes']]]);
    const adminRole = (await h.sql<{ id: string }>(`SELECT id FROM roles WHERE admin_access`))[0].id;
    const ed = await user('editor@x.io', editor);

    const ok = await as(ed.token).post('/users/me/tokens', { name: 'read-only', expires: inDays(7), role: reader });
    expect(ok.status).toBe(200);
    secrets.push(ok.body.data.token);
    expect(apiTokenEntrySchema.parse(await entryOf(ok.body.data.token))).toMatchObject({ role: reader, admin: false, user: ed.id });
    for (const r of [wider, adminRole]) {
      const refused = await as(ed.token).post('/users/me/tokens', { name: 'more', expires: inDays(7), role: r });
      expect([refused.status, code(refused)]).toEqual([400, 'INVALID_PAYLOAD']);
      expect(refused.body.errors[0].message).toMatch(/must not allow more than the user's own role/);
    }
    // an admin may give any role; an unknown role is refused
    expect((await as(admin).post(`/users/${ed.id}/tokens`, { name: 'by-admin', expires: inDays(7), role: reader })).status).toBe(200);
    expect(code(await as(ed.token).post('/users/me/tokens', { name: 'x', expires: inDays(7), role: '00000000-0000-4000-8000-000000000000' }))).toBe(
      'INVALID_PAYLOAD',
    );

    // the user is demoted to Reader's rights minus a field: the narrower token now exceeds them → revoked
    const least = await role('Least', [['articles', 'read', ['body']]]);
    expect((await as(admin).patch(`/users/${ed.id}`, { role: least })).status).toBe(200);
    expect(await entryOf(ok.body.data.token)).toBeNull();
    expect(await audits('token_revoked', ok.body.data.id)).toHaveLength(1);
  });

  it('revoking, suspending or deleting the user removes the map entry at once; auth refuses with 401', async () => {
    const u = await user('scripts@x.io', null);
    const t1 = (await as(u.token).post('/users/me/tokens', { name: 'one', expires: inDays(7) })).body.data;
    const t2 = (await as(u.token).post('/users/me/tokens', { name: 'two', expires: inDays(7) })).body.data;
    secrets.push(t1.token, t2.token);
    expect((await as(t1.token).get('/users/me')).status).toBe(200);

    expect((await as(u.token).del(`/users/me/tokens/${t1.id}`)).status).toBe(204);
    expect(await entryOf(t1.token)).toBeNull();
    expect(code(await as(t1.token).get('/users/me'))).toBe('INVALID_CREDENTIALS');
    expect(await audits('token_revoked', t1.id)).toHaveLength(1);
    expect(code(await as(u.token).del(`/users/me/tokens/${t1.id}`))).toBe('FORBIDDEN');
    // not yours: someone else's token cannot be revoked through /users/me
    expect(code(await as(admin).del(`/users/me/tokens/${t2.id}`))).toBe('FORBIDDEN');

    expect((await as(admin).patch(`/users/${u.id}`, { status: 'suspended' })).status).toBe(200);
    expect(await entryOf(t2.token)).toBeNull();
    const r = await as(t2.token).get('/users/me');
    expect(r.status).toBe(401);
    expect((await as(admin).patch(`/users/${u.id}`, { status: 'active' })).status).toBe(200);
    expect(apiTokenEntrySchema.parse(await entryOf(t2.token)).id).toBe(t2.id);
    expect((await as(t2.token).get('/users/me')).status).toBe(200);

    const listed = await as(admin).get(`/users/${u.id}/tokens`);
    expect(listed.body.data.map((t: { name: string }) => t.name)).toEqual(['two']);
    expect(code(await as(t2.token).get(`/users/${u.id}/tokens`))).toBe('FORBIDDEN');
    expect((await as(admin).del(`/users/${u.id}`)).status).toBe(204);
    expect(await entryOf(t2.token)).toBeNull();
  });

  it('records last_used and one token_first_use activity', async () => {
    const t = (await as(admin).post('/users/me/tokens', { name: 'first-use', expires: inDays(7) })).body.data;
    secrets.push(t.token);
    expect(await audits('token_first_use', t.id)).toHaveLength(0);
    await as(t.token).get('/users/me');
    await as(t.token).get('/users/me');
    const deadline = Date.now() + 3000;
    while ((await audits('token_first_use', t.id)).length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(await audits('token_first_use', t.id)).toHaveLength(1);
    const listed = (await as(admin).get('/users/me/tokens')).body.data.find((x: { id: string }) => x.id === t.id);
    expect(listed.last_used).toBe(clock.now().toISOString());
  });

  it('a static token through PATCH /users/:id {"token"} (Directus) is stored hashed and works; null removes it', async () => {
    const u = await user('static@x.io', null);
    const secret = 'static-token-of-a-directus-script-0123';
    secrets.push(secret);
    expect(code(await as(admin).patch(`/users/${u.id}`, { token: 'short' }))).toBe('INVALID_PAYLOAD');
    const patched = await as(admin).patch(`/users/${u.id}`, { token: secret });
    expect(patched.status).toBe(200);
    expect(patched.text).not.toContain(secret);
    const me = await as(secret).get('/users/me');
    expect([me.status, me.body.data?.email]).toEqual([200, 'static@x.io']);
    const rows = await h.sql<{ token_hash: string; static: boolean; expires_at: Date | null }>(
      `SELECT token_hash, static, expires_at FROM api_tokens WHERE user_id = $1`,
      [u.id],
    );
    expect(rows).toEqual([{ token_hash: sha256(secret), static: true, expires_at: null }]);
    expect(apiTokenEntrySchema.parse(await entryOf(secret))).toMatchObject({ user: u.id, expires_at: null });

    const replaced = 'another-static-token-for-the-same-user';
    secrets.push(replaced);
    await as(admin).patch(`/users/${u.id}`, { token: replaced });
    expect(code(await as(secret).get('/users/me'))).toBe('INVALID_CREDENTIALS');
    expect((await as(replaced).get('/users/me')).status).toBe(200);
    // another user's static token: refused as a taken token (it was reported as a taken e-mail), nothing changed
    const other = await user('static-other@x.io', null);
    const taken = await as(admin).patch(`/users/${other.id}`, { token: replaced, first_name: 'Otto' });
    expect([taken.status, taken.body.errors[0].extensions]).toEqual([400, { code: 'FAILED_VALIDATION', field: 'token', type: 'unique' }]);
    expect((await as(admin).get(`/users/${other.id}`)).body.data.first_name).toBeNull();
    expect((await as(replaced).get('/users/me')).body.data.email).toBe('static@x.io');
    await as(admin).patch(`/users/${u.id}`, { token: null });
    expect(code(await as(replaced).get('/users/me'))).toBe('INVALID_CREDENTIALS');
  });

  it('no secret appears in any response after creation, in the logs or in any published event', async () => {
    expect(secrets.length).toBeGreaterThan(6);
    expect(logs.length).toBeGreaterThan(0);
    const outbox = JSON.stringify(await h.sql(`SELECT subject, payload, headers FROM outbox`));
    const creation = new Set(bodies.filter((b) => b.includes('"token":"vlm_')));
    for (const secret of secrets) {
      expect(outbox).not.toContain(secret);
      expect(logs.join('\n')).not.toContain(secret);
      for (const b of bodies) if (!creation.has(b)) expect(b).not.toContain(secret);
    }
  });
});
