import request from 'supertest';
import { ADMIN, code, adminHarness, loginAs, type Harness } from './helpers';

// Issue 23 point 1: GET/SEARCH /users, /roles, /permissions speak the query language of /revisions and /items
// (libs/query) against the real database; secrets are never readable, filterable, sortable or searchable.
let h: Harness;
let admin: string;
const roles: Record<string, string> = {};
beforeAll(async () => {
  ({ h, admin } = await adminHarness());
  for (const name of ['Reader', 'Editor']) roles[name] = (await post('/roles', { name, description: `${name}s of the site` })).body.data.id;
  const people: [string, string, string, string, string][] = [
    ['ann@site.io', 'Ann', 'Smith', 'Reader', 'active'],
    ['bob@site.io', 'Bob', 'Smithers', 'Reader', 'suspended'],
    ['cy@other.io', 'Cy', 'Jones', 'Editor', 'active'],
    ['dee@other.io', 'Dee', 'Brown', 'Editor', 'invited'],
    ['eve@site.io', 'Eve', 'Black', 'Editor', 'active'],
  ];
  for (const [email, first_name, last_name, role, status] of people)
    expect((await post('/users', { email, first_name, last_name, role: roles[role], status, title: `${role} ${first_name}` })).status).toBe(200);
  // one with a password and a TFA secret set (secrets in the table, concealed in the API)
  await post('/users', { email: 'fay@site.io', first_name: 'Fay', password: 'fay-password-123' });
  await h.sql(`UPDATE users SET tfa_secret = 'sealed-secret', tfa_pending_secret = 'pending' WHERE email = 'fay@site.io'`);
  await post('/permissions', { role: roles.Reader, collection: 'articles', action: 'read', fields: ['id', 'title'] });
  await post('/permissions', { role: roles.Editor, collection: 'articles', action: 'update' });
  await post('/permissions', { role: null, collection: 'pages', action: 'read' });
});
afterAll(() => h.close());

function post(path: string, body: unknown) {
  return request(h.app)
    .post(path)
    .set('Authorization', `Bearer ${admin}`)
    .send(body as object);
}
const get = (path: string, query: Record<string, unknown> = {}) => request(h.app).get(path).query(query).set('Authorization', `Bearer ${admin}`);
const search = (path: string, query: unknown) =>
  request(h.app)
    .search(path)
    .set('Authorization', `Bearer ${admin}`)
    .send({ query } as object);
const emails = (r: request.Response) => (r.body.data as { email: string }[]).map((u) => u.email);

describe('the auth lists speak the query language', () => {
  it('filters (the issue: an e-mail nobody has, a role name no role has → nothing)', async () => {
    const none = await get('/users?filter[email][_eq]=nobody@example.com');
    expect(none.status).toBe(200);
    expect(none.body).toEqual({ data: [] });
    expect((await get('/roles?filter[name][_eq]=nope')).body).toEqual({ data: [] });
    const reader = await get('/roles', { filter: JSON.stringify({ name: { _eq: 'Reader' } }) });
    expect(reader.body.data).toEqual([expect.objectContaining({ id: roles.Reader, name: 'Reader' })]);
    // bracket form with two fields (an implicit _and)
    expect(emails(await get('/users', { filter: { status: { _eq: 'active' }, email: { _ends_with: '@site.io' } } }))).toEqual([
      'ann@site.io',
      'eve@site.io',
      'fay@site.io',
    ]);
  });

  it('_and / _or and relational filters (role.name)', async () => {
    const or = await get('/users', {
      filter: JSON.stringify({ _or: [{ first_name: { _eq: 'Ann' } }, { _and: [{ last_name: { _starts_with: 'B' } }, { status: { _neq: 'active' } }] }] }),
    });
    expect(emails(or)).toEqual(['ann@site.io', 'dee@other.io']);
    const editors = await get('/users', { filter: JSON.stringify({ role: { name: { _eq: 'Editor' } } }), fields: 'email,role.name' });
    expect(editors.body.data).toEqual([
      { email: 'cy@other.io', role: { name: 'Editor' } },
      { email: 'dee@other.io', role: { name: 'Editor' } },
      { email: 'eve@site.io', role: { name: 'Editor' } },
    ]);
    expect(emails(await get('/users', { filter: JSON.stringify({ role: { _null: true } }) }))).toEqual(['fay@site.io']);
    const publicPerms = await get('/permissions', { filter: JSON.stringify({ role: { _null: true } }), fields: 'collection,action' });
    expect(publicPerms.body.data).toEqual([{ collection: 'pages', action: 'read' }]);
    const readerPerms = await get('/permissions', { filter: JSON.stringify({ role: { name: { _icontains: 'READ' } } }), fields: 'collection,fields' });
    expect(readerPerms.body.data).toEqual([{ collection: 'articles', fields: ['id', 'title'] }]);
  });

  it('fields, sort, limit/offset/page, search and meta', async () => {
    const sorted = await get('/users', { sort: '-last_name', fields: 'last_name', limit: 3, filter: JSON.stringify({ last_name: { _nnull: true } }) });
    expect(sorted.body.data).toEqual([{ last_name: 'Smithers' }, { last_name: 'Smith' }, { last_name: 'Jones' }]);
    const page2 = await get('/users', { sort: 'first_name', fields: ['first_name'], limit: 2, page: 2 });
    expect(page2.body.data).toEqual([{ first_name: 'Cy' }, { first_name: 'Dee' }]); // Ann Bob | Cy Dee | Eve Fay | (admin: null last)
    expect((await get('/users', { sort: 'first_name', fields: 'first_name', limit: 2, offset: 3 })).body.data).toEqual([
      { first_name: 'Dee' },
      { first_name: 'Eve' },
    ]);
    const found = await get('/users', { search: 'smith', meta: 'filter_count,total_count', fields: 'email' });
    expect(found.body).toEqual({ data: [{ email: 'ann@site.io' }, { email: 'bob@site.io' }], meta: { total_count: 7, filter_count: 2 } });
    const star = await get('/roles', { search: 'site', meta: '*', fields: 'name', sort: '-name', limit: 1 });
    expect(star.body).toEqual({ data: [{ name: 'Reader' }], meta: { total_count: 3, filter_count: 2 } });
    expect((await get('/permissions', { search: 'update', fields: 'collection,action' })).body.data).toEqual([{ collection: 'articles', action: 'update' }]);
    expect((await get('/users', { limit: 0, meta: 'total_count' })).body).toEqual({ data: [], meta: { total_count: 7 } });
  });

  it('aggregate and groupBy', async () => {
    const byStatus = await get('/users', { aggregate: JSON.stringify({ count: '*' }), groupBy: 'status' });
    expect(byStatus.body.data).toEqual([
      { status: 'active', count: 5 },
      { status: 'invited', count: 1 },
      { status: 'suspended', count: 1 },
    ]);
    const byRole = await get('/users', {
      aggregate: JSON.stringify({ count: '*' }),
      groupBy: 'role.name',
      sort: 'role.name',
      filter: JSON.stringify({ role: { _nnull: true } }),
    });
    expect(byRole.body.data).toEqual([
      { 'role.name': 'Administrator', count: 1 },
      { 'role.name': 'Editor', count: 3 },
      { 'role.name': 'Reader', count: 2 },
    ]);
  });

  it('SEARCH with the query in the body', async () => {
    const r = await search('/users', { filter: { role: { name: { _eq: 'Reader' } } }, fields: ['email', 'status'], sort: ['-email'], meta: 'filter_count' });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      data: [
        { email: 'bob@site.io', status: 'suspended' },
        { email: 'ann@site.io', status: 'active' },
      ],
      meta: { filter_count: 2 },
    });
    expect((await search('/roles', { filter: { name: { _eq: 'nope' } } })).body).toEqual({ data: [] });
    expect((await search('/permissions', { filter: { action: { _eq: 'update' } }, fields: 'action' })).body.data).toEqual([{ action: 'update' }]);
    expect((await request(h.app).search('/users').set('Authorization', `Bearer ${admin}`)).body.data).toHaveLength(7);
    expect(code(await request(h.app).search('/users').set('Authorization', `Bearer ${admin}`).send({ query: 'x' }))).toBe('INVALID_PAYLOAD');
  });

  it('SEARCH with an unknown key in the body or its query → 400 INVALID_PAYLOAD; meta=<unknown> → 400 INVALID_QUERY (issue 17.3)', async () => {
    for (const path of ['/users', '/roles', '/permissions']) {
      const top = await request(h.app).search(path).set('Authorization', `Bearer ${admin}`).send({ filter: {} });
      expect([path, top.status, code(top)]).toEqual([path, 400, 'INVALID_PAYLOAD']);
      expect([path, code(await search(path, { filtr: {} }))]).toEqual([path, 'INVALID_PAYLOAD']);
      expect([path, code(await search(path, { meta: 'nope' }))]).toEqual([path, 'INVALID_QUERY']);
      expect([path, code(await request(h.app).get(`${path}?meta=nope`).set('Authorization', `Bearer ${admin}`))]).toEqual([path, 'INVALID_QUERY']);
    }
  });

  it('keeps the default shape and order (users by e-mail, roles by name, permissions by id)', async () => {
    const users = await get('/users');
    expect(Object.keys(users.body)).toEqual(['data']);
    expect(emails(users)).toEqual([ADMIN.email, 'ann@site.io', 'bob@site.io', 'cy@other.io', 'dee@other.io', 'eve@site.io', 'fay@site.io']);
    const fay = users.body.data.find((u: { email: string }) => u.email === 'fay@site.io');
    expect(fay).toEqual({
      id: expect.any(String),
      first_name: 'Fay',
      last_name: null,
      email: 'fay@site.io',
      password: '**********',
      status: 'active',
      role: null,
      title: null,
      description: null,
      language: null,
      provider: 'default',
      external_identifier: null,
      tfa_secret: '**********',
      last_access: null,
    });
    expect(users.body.data.find((u: { email: string }) => u.email === 'ann@site.io')).toMatchObject({ password: null, tfa_secret: null, role: roles.Reader });
    expect((await get(`/users/${fay.id}`)).body.data).toEqual(fay);
    expect((await get('/roles')).body.data.map((r: { name: string }) => r.name)).toEqual(['Administrator', 'Editor', 'Reader']);
    const perms = (await get('/permissions')).body.data as { id: number }[];
    expect(perms.map((p) => p.id)).toEqual([...perms.map((p) => p.id)].sort((a, b) => a - b));
    expect(perms[0]).toEqual({
      id: expect.any(Number),
      role: roles.Reader,
      collection: 'articles',
      action: 'read',
      fields: ['id', 'title'],
      permissions: null,
      validation: null,
      presets: null,
    });
  });

  it('fields on one record and on /users/me', async () => {
    const me = await get('/users/me', { fields: 'email,role.name,role.admin_access' });
    expect(me.body.data).toEqual({ email: ADMIN.email, role: { name: 'Administrator', admin_access: true } });
    expect((await get(`/roles/${roles.Editor}`, { fields: 'name' })).body.data).toEqual({ name: 'Editor' });
    expect(code(await get('/users/me', { fields: 'password' }))).toBe('FORBIDDEN');
    expect(code(await get('/users/not-a-uuid'))).toBe('FORBIDDEN');
    expect(code(await get('/permissions/99999'))).toBe('FORBIDDEN');
  });

  it('never reads, filters, sorts, groups or searches a secret: 403 as an unreadable field on /revisions', async () => {
    const forbidden: [string, Record<string, unknown>][] = [
      ['/users', { fields: 'password' }],
      ['/users', { fields: 'email,tfa_secret' }],
      ['/users', { fields: 'tfa_pending_secret' }],
      ['/users', { fields: 'role.users' }],
      ['/users', { filter: JSON.stringify({ password: { _starts_with: '$argon2' } }) }],
      ['/users', { filter: JSON.stringify({ _or: [{ email: { _eq: 'x' } }, { tfa_secret: { _nnull: true } }] }) }],
      ['/users', { filter: JSON.stringify({ failed_login_attempts: { _gt: 0 } }) }],
      ['/users', { sort: '-password' }],
      ['/users', { sort: 'tfa_secret' }],
      ['/users', { groupBy: 'password', aggregate: JSON.stringify({ count: '*' }) }],
      ['/users', { aggregate: JSON.stringify({ min: 'password' }) }],
      ['/users', { fields: 'nope' }],
      ['/roles', { filter: JSON.stringify({ users: { password: { _nnull: true } } }) }],
      ['/permissions', { sort: 'role.nope' }],
    ];
    for (const [path, query] of forbidden) {
      const r = await get(path, query);
      expect([path, query, r.status, code(r)]).toEqual([path, query, 403, 'FORBIDDEN']);
    }
    expect(code(await search('/users', { filter: { password: { _null: false } } }))).toBe('FORBIDDEN');
    // the hash is not searched: "argon2" is in every hash, in no searchable field
    expect((await get('/users', { search: 'argon2' })).body.data).toEqual([]);
    expect((await get('/users', { search: 'sealed-secret' })).body.data).toEqual([]);
  });

  it('unknown operators and bad values are 400 INVALID_QUERY', async () => {
    const bad: [string, Record<string, unknown>][] = [
      ['/users', { filter: JSON.stringify({ email: { _regex: '.' } }) }],
      ['/users', { filter: JSON.stringify({ email: { _gt: 'a' } }) }],
      ['/roles', { filter: JSON.stringify({ admin_access: { _contains: 'true' } }) }],
      ['/users', { filter: JSON.stringify({ _nope: [] }) }],
      ['/users', { filter: '{not json' }],
      ['/users', { limit: 'abc' }],
      ['/users', { filter: JSON.stringify({ id: { _eq: 'not-a-uuid' } }) }],
      ['/permissions', { filter: JSON.stringify({ id: { _in: [] } }) }],
      ['/users', { aggregate: JSON.stringify({ sum: 'email' }) }],
    ];
    for (const [path, query] of bad) {
      const r = await get(path, query);
      expect([path, query, r.status, code(r)]).toEqual([path, query, 400, 'INVALID_QUERY']);
      expect(r.body.errors[0].message).toEqual(expect.any(String));
    }
  });

  it('stays admin only', async () => {
    await post('/users', { email: 'plain@site.io', password: 'plain-password-1', role: roles.Reader });
    const token = (await loginAs(h.app, 'plain@site.io', 'plain-password-1')).body.data.access_token;
    expect(code(await request(h.app).get('/users?filter[email][_eq]=plain@site.io').set('Authorization', `Bearer ${token}`))).toBe('FORBIDDEN');
    expect(code(await request(h.app).search('/roles').set('Authorization', `Bearer ${token}`).send({}))).toBe('FORBIDDEN');
    expect((await request(h.app).get('/users/me?fields=email').set('Authorization', `Bearer ${token}`)).body.data).toEqual({ email: 'plain@site.io' });
    await h.sql(`DELETE FROM users WHERE email = 'plain@site.io'`);
  });
});
