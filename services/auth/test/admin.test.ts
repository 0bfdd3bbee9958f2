import request from 'supertest';
import { itemChangeEventSchema, roleAccessSchema } from '@vellum/contracts';
import { ADMIN, code, adminHarness, loginAs, type Harness } from './helpers';

let h: Harness;
let admin: string;
beforeAll(async () => {
  ({ h, admin } = await adminHarness());
});
afterAll(() => h.close());

const as = (token: string) => ({
  get: (p: string) => request(h.app).get(p).set('Authorization', `Bearer ${token}`),
  post: (p: string, b: unknown) =>
    request(h.app)
      .post(p)
      .set('Authorization', `Bearer ${token}`)
      .send(b as object),
  patch: (p: string, b: unknown) =>
    request(h.app)
      .patch(p)
      .set('Authorization', `Bearer ${token}`)
      .send(b as object),
  del: (p: string) => request(h.app).delete(p).set('Authorization', `Bearer ${token}`),
});
const outbox = (where: string, values: unknown[] = []) =>
  h.sql<{ destination: string; subject: string; payload: Record<string, unknown> }>(
    `SELECT destination, subject, payload FROM outbox WHERE ${where} ORDER BY seq`,
    values,
  );

describe('users, roles, permissions (admin)', () => {
  it('CRUD in Directus shapes with item-change events (secrets redacted) and access-rule rewrites', async () => {
    const role = await as(admin).post('/roles', { name: 'Editor', app_access: true });
    expect(role.status).toBe(200);
    expect(role.body.data).toMatchObject({ name: 'Editor', admin_access: false, app_access: true, enforce_tfa: false });
    const roleId = role.body.data.id;

    const perm = await as(admin).post('/permissions', { role: roleId, collection: 'articles', action: 'read', fields: ['id', 'title'] });
    expect(perm.body.data).toMatchObject({ role: roleId, collection: 'articles', action: 'read', fields: ['id', 'title'] });
    const pub = await as(admin).post('/permissions', { role: null, collection: 'articles', action: 'read', fields: 'id' });
    expect(pub.body.data.fields).toEqual(['id']);
    expect(code(await as(admin).post('/permissions', { collection: 'a', action: 'upsert' }))).toBe('INVALID_PAYLOAD');

    const user = await as(admin).post('/users', { email: 'ed@x.io', password: 'editor-password', role: roleId, first_name: 'Ed' });
    expect(user.status).toBe(200);
    expect(user.body.data).toMatchObject({ email: 'ed@x.io', password: '**********', status: 'active', role: roleId, tfa_secret: null });
    expect(code(await as(admin).post('/users', { email: 'ED@x.io' }))).toBe('FAILED_VALIDATION');
    expect(code(await as(admin).post('/users', { email: 'x@x.io', password: 'short' }))).toBe('FAILED_VALIDATION');
    expect(code(await as(admin).post('/users', { email: 'x@x.io', nonsense: 1 }))).toBe('INVALID_PAYLOAD');

    const list = await as(admin).get('/users');
    expect(list.body.data.map((u: { email: string }) => u.email)).toEqual([ADMIN.email, 'ed@x.io']);
    expect((await as(admin).get(`/users/${user.body.data.id}`)).body.data.first_name).toBe('Ed');
    expect((await as(admin).patch(`/users/${user.body.data.id}`, { last_name: 'Itor' })).body.data.last_name).toBe('Itor');
    expect((await as(admin).get('/roles')).body.data).toHaveLength(2);
    expect((await as(admin).get('/permissions?limit=1')).body.data).toHaveLength(1);

    // events
    const created = await outbox(`subject = 'items.vellum_users.create' AND payload->>'item' = $1`, [user.body.data.id]);
    const ev = itemChangeEventSchema.parse(created[0].payload);
    expect(ev.data).toMatchObject({ password: '**********', email: 'ed@x.io' });
    expect(ev.actor.user).toBeTruthy();
    expect(await outbox(`subject = 'items.vellum_roles.create'`)).toHaveLength(2); // bootstrap admin + Editor
    expect(await outbox(`subject = 'items.vellum_permissions.create'`)).toHaveLength(2);
    expect(await outbox(`subject = 'items.vellum_users.update'`)).toHaveLength(1);

    // access rules: the role's latest entry, the public one
    const latest = async (key: string) => (await outbox(`destination = 'vellum_access' AND subject = $1`, [key])).at(-1)!.payload;
    expect(roleAccessSchema.parse(await latest(roleId))).toMatchObject({
      role: roleId,
      admin: false,
      app: true,
      permissions: { articles: { read: ['id', 'title'] } },
    });
    expect(await latest('public')).toMatchObject({ role: null, permissions: { articles: { read: ['id'] } } });

    // delete
    expect((await as(admin).del(`/permissions/${perm.body.data.id}`)).status).toBe(204);
    expect((await latest(roleId)).permissions).toEqual({});
    expect((await as(admin).del(`/users/${user.body.data.id}`)).status).toBe(204);
    expect(code(await as(admin).get(`/users/${user.body.data.id}`))).toBe('FORBIDDEN');
    expect((await as(admin).del(`/roles/${roleId}`)).status).toBe(204);
    expect((await outbox(`destination = 'vellum_access' AND subject = $1`, [roleId])).at(-1)!.payload).toBeNull();
    expect(await outbox(`subject = 'items.vellum_roles.delete'`)).toHaveLength(1);
  });

  it('non-admins get 403 on admin routes; /users/me works for them; PATCH /users/me is limited', async () => {
    const u = await as(admin).post('/users', { email: 'me@x.io', password: 'me-password-1' });
    const token = (await loginAs(h.app, 'me@x.io', 'me-password-1')).body.data.access_token;
    expect(code(await as(token).get('/users'))).toBe('FORBIDDEN');
    expect(code(await as(token).post('/roles', { name: 'x' }))).toBe('FORBIDDEN');
    expect(code(await request(h.app).get('/users/me'))).toBe('FORBIDDEN');
    expect((await as(token).get('/users/me')).body.data).toMatchObject({ id: u.body.data.id, email: 'me@x.io' });
    // its own rules (no role: the public role's), not the admin list
    await as(admin).post('/permissions', { role: null, collection: 'notes', action: 'read', fields: ['title'] });
    const mine = (await as(token).get('/permissions/me')).body.data as { role: string | null; collection: string }[];
    expect(mine).toContainEqual(expect.objectContaining({ collection: 'notes', action: 'read', fields: ['title'] }));
    expect(mine.every((p) => p.role === null)).toBe(true);
    expect(code(await request(h.app).get('/permissions/me'))).toBe('FORBIDDEN');
    expect((await as(token).patch('/users/me', { first_name: 'Me' })).body.data.first_name).toBe('Me');
    expect(code(await as(token).patch('/users/me', { role: null }))).toBe('INVALID_PAYLOAD');
    expect(code(await as(token).patch('/users/me', { status: 'active' }))).toBe('INVALID_PAYLOAD');
    expect(code(await request(h.app).get('/users/me').set('Authorization', 'Bearer not-a-jwt'))).toBe('INVALID_CREDENTIALS');
  });

  it('role names are unique (letter case aside); a role is deleted with its users moved to another (issue 40.5)', async () => {
    const a = (await as(admin).post('/roles', { name: 'Writers' })).body.data.id as string;
    const b = (await as(admin).post('/roles', { name: 'Reviewers' })).body.data.id as string;
    const dup = await as(admin).post('/roles', { name: 'writers' });
    expect({ status: dup.status, code: code(dup), field: dup.body.errors[0].extensions.field }).toEqual({
      status: 400,
      code: 'FAILED_VALIDATION',
      field: 'name',
    });
    expect(code(await as(admin).patch(`/roles/${b}`, { name: 'WRITERS' }))).toBe('FAILED_VALIDATION');
    expect((await as(admin).patch(`/roles/${a}`, { name: 'Writers', description: 'they write' })).status).toBe(200);
    const u = (await as(admin).post('/users', { email: 'writer@x.io', role: a })).body.data.id as string;
    expect(code(await as(admin).del(`/roles/${a}?move_users_to=${a}`))).toBe('INVALID_PAYLOAD');
    expect(code(await as(admin).del(`/roles/${a}?move_users_to=00000000-0000-4000-8000-00000000dead`))).toBe('INVALID_PAYLOAD');
    expect((await as(admin).del(`/roles/${a}?move_users_to=${b}`)).status).toBe(204);
    expect((await as(admin).get(`/users/${u}`)).body.data.role).toBe(b);
    // the move is a change of the user: its revision has the new role
    const moved = await outbox(`subject = 'items.vellum_users.update' AND payload->>'item' = $1`, [u]);
    expect(moved.at(-1)?.payload).toMatchObject({ action: 'update', data: { role: b } });
  });

  it('ten concurrent creates of one role name: one role, nine 400s (the unique index settles the race)', async () => {
    const all = await Promise.all(Array.from({ length: 10 }, (_, i) => as(admin).post('/roles', { name: i % 2 ? 'Racers' : 'RACERS' })));
    expect(all.map((r) => r.status).sort()).toEqual([200, ...Array(9).fill(400)]);
    for (const r of all.filter((x) => x.status === 400)) expect([code(r), r.body.errors[0].extensions.field]).toEqual(['FAILED_VALIDATION', 'name']);
  });

  it('refuses item rules (permissions, validation, presets): they are not enforced, so storing one would widen access', async () => {
    const base = { role: null, collection: 'ruled', action: 'read' };
    for (const key of ['permissions', 'validation', 'presets']) {
      for (const rule of [{ owner: { _eq: '$CURRENT_USER' } }, 'x', [1]]) {
        const r = await as(admin).post('/permissions', { ...base, [key]: rule });
        expect([key, r.status, r.body.errors?.[0]?.extensions]).toEqual([
          key,
          400,
          {
            code: 'INVALID_PAYLOAD',
            reason: `"${key}" must be null or {}: item rules are not supported (a permission applies to every item of its collection)`,
          },
        ]);
      }
    }
    expect((await h.sql(`SELECT 1 FROM permissions WHERE collection = 'ruled'`)).length).toBe(0);
    const plain = await as(admin).post('/permissions', { ...base, permissions: {}, validation: null, presets: {} });
    expect(plain.status).toBe(200);
    const patched = await as(admin).patch(`/permissions/${plain.body.data.id}`, { permissions: { id: { _gt: 1 } } });
    expect([patched.status, patched.body.errors[0].extensions.code]).toEqual([400, 'INVALID_PAYLOAD']);
  });

  it('a role needs a name that is not blank (creating and renaming)', async () => {
    for (const name of ['', '   ']) {
      const r = await as(admin).post('/roles', { name });
      expect([r.status, r.body.errors[0].extensions]).toEqual([400, { code: 'INVALID_PAYLOAD', reason: '"name" must not be empty' }]);
    }
    const id = (await as(admin).post('/roles', { name: 'Named' })).body.data.id;
    expect((await as(admin).patch(`/roles/${id}`, { name: ' ' })).status).toBe(400);
    expect((await as(admin).get(`/roles/${id}`)).body.data.name).toBe('Named');
  });

  it('text with a NUL character (PostgreSQL cannot store one) is 400 INVALID_PAYLOAD, and nothing is written', async () => {
    const role = await as(admin).post('/roles', { name: 'a\u0000b' });
    expect([role.status, role.body.errors[0].extensions]).toEqual([400, { code: 'INVALID_PAYLOAD', reason: 'text cannot contain NUL characters (\\u0000)' }]);
    expect((await as(admin).patch('/users/me', { first_name: 'Ann' })).status).toBe(200);
    const me = await as(admin).patch('/users/me', { first_name: 'x\u0000', last_name: 'Lee' });
    expect([me.status, me.body.errors[0].extensions.code]).toEqual([400, 'INVALID_PAYLOAD']);
    expect((await as(admin).get('/users/me')).body.data).toMatchObject({ first_name: 'Ann', last_name: null });
  });

  it('declares an access rule for every route', () => {
    for (const r of h.built.routes) expect(['public', 'authenticated', 'admin']).toContain(r.access);
    expect(h.built.routes).toContainEqual({ method: 'get', path: '/users', access: 'admin' });
    expect(h.built.routes).toContainEqual({ method: 'get', path: '/users/me', access: 'authenticated' });
  });
});

describe('GraphQL subgraph', () => {
  const gql = (query: string, variables: object = {}, token?: string) => {
    const r = request(h.app).post('/graphql').set('Content-Type', 'application/json');
    if (token) r.set('Authorization', `Bearer ${token}`);
    return r.send({ query, variables });
  };

  it('auth_login / auth_refresh / auth_logout with expires as a string, users_me, entity resolution', async () => {
    const login = await gql('mutation($e:String!,$p:String!){ auth_login(email:$e,password:$p){ access_token refresh_token expires } }', {
      e: ADMIN.email,
      p: ADMIN.password,
    });
    expect(login.status).toBe(200);
    const t = login.body.data.auth_login;
    expect(t.expires).toBe('900000');
    const ref = await gql('mutation($r:String){ auth_refresh(refresh_token:$r, mode: json){ refresh_token expires } }', { r: t.refresh_token });
    expect(ref.body.data.auth_refresh.refresh_token).toBeTruthy();
    const me = await gql('{ users_me { id email } }', {}, t.access_token);
    expect(me.body.data.users_me.email).toBe(ADMIN.email);
    const entity = await gql(
      'query($r:[_Any!]!){ _entities(representations:$r){ ... on vellum_users { id email } } }',
      { r: [{ __typename: 'vellum_users', id: me.body.data.users_me.id }] },
      t.access_token,
    );
    expect(entity.body.data._entities[0].email).toBe(ADMIN.email);
    const sdl = await gql('{ _service { sdl } }');
    expect(sdl.body.data._service.sdl).toMatch(/type vellum_users\s+@key\(fields: "id"\)/);
    const out = await gql('mutation($r:String){ auth_logout(refresh_token:$r) }', { r: ref.body.data.auth_refresh.refresh_token });
    expect(out.body.data.auth_logout).toBe(true);
  });

  it('errors carry the catalogue code (HTTP 200); syntax errors are GRAPHQL_VALIDATION', async () => {
    const bad = await gql('mutation{ auth_login(email:"nobody@x.io", password:"x"){ access_token } }');
    expect(bad.status).toBe(200);
    expect(bad.body.errors[0].extensions.code).toBe('INVALID_CREDENTIALS');
    expect(bad.body.errors[0].path).toEqual(['auth_login']);
    const reset = await gql('mutation{ auth_password_reset(token:"garbage", password:"whatever-1") }');
    expect(reset.body.errors[0].extensions.code).toBe('INVALID_TOKEN');
    const syntax = await gql('{ users_me { ');
    expect(syntax.status).toBe(400);
    expect(syntax.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION');
  });
});
