import request from 'supertest';
import {
  authentication,
  createDirectus,
  createUser,
  readRevisions,
  readRoles,
  readUsers,
  rest,
  serverHealth,
  serverInfo,
  staticToken,
  updateUser,
  withSearch,
} from '@directus/sdk';
import { startTestPlatform, ADMIN, type TestPlatform } from './platform-harness';

// Issue 5's "done when": the official @directus/sdk (rest + authentication, json mode) logs in, refreshes,
// reads revisions with a filter and meta, and logs out against the gateway; every auth mode with cookies
// passing both ways through the proxy.
describe('auth through the gateway', () => {
  let p: TestPlatform;
  beforeAll(async () => {
    p = await startTestPlatform();
  });
  afterAll(() => p?.close());

  it('works with the official @directus/sdk: login, refresh, read revisions with filter + meta, logout', async () => {
    const client = createDirectus(p.url).with(authentication('json')).with(rest());
    const login = await client.login({ email: ADMIN.email, password: ADMIN.password });
    expect(login).toMatchObject({ access_token: expect.any(String), refresh_token: expect.any(String), expires: 900000 });

    const refreshed = await client.refresh();
    expect(refreshed.refresh_token).not.toBe(login.refresh_token);
    expect(refreshed.access_token).toEqual(expect.any(String));

    const revs = await client.request(readRevisions({ filter: { collection: { _eq: 'vellum_users' } }, fields: ['id', 'collection', 'item'], limit: 5 }));
    expect(revs.length).toBeGreaterThanOrEqual(1);
    expect(revs.every((r) => r.collection === 'vellum_users')).toBe(true);
    // meta is not exposed by readRevisions' typed result; ask for it on the wire the way the SDK sends queries.
    const withMeta = await request(p.url)
      .get('/revisions')
      .query({ filter: JSON.stringify({ collection: { _eq: 'vellum_users' } }), meta: '*' })
      .set('Authorization', `Bearer ${refreshed.access_token}`);
    expect(withMeta.body.meta).toEqual({ total_count: expect.any(Number), filter_count: revs.length });

    await client.logout();
    const after = await request(p.url).post('/auth/refresh').send({ refresh_token: refreshed.refresh_token, mode: 'json' });
    expect(after.status).toBe(401);
    expect(after.body.errors[0].extensions.code).toBe('INVALID_CREDENTIALS');
  });

  it('readUsers / readRoles with filter, fields and search through the gateway, GET and SEARCH (issue 23)', async () => {
    const client = createDirectus(p.url)
      .with(staticToken((await p.login()).access_token))
      .with(rest());
    // a client looking up "the reader role" by name must not get the Administrator role
    expect(await client.request(readRoles({ filter: { name: { _eq: 'no such role' } } }))).toEqual([]);
    const admins = await client.request(readRoles({ filter: { admin_access: { _eq: true } }, fields: ['name'] }));
    expect(admins).toEqual([{ name: 'Administrator' }]);
    const query = { filter: { role: { name: { _eq: 'Administrator' } } }, fields: ['email', 'role.name'], search: ADMIN.email.split('@')[0] };
    const viaGet = await client.request(readUsers(query));
    expect(viaGet).toEqual([{ email: ADMIN.email, role: { name: 'Administrator' } }]);
    expect(await client.request(withSearch(readUsers(query)))).toEqual(viaGet);
    await expect(client.request(readUsers({ fields: ['password'] }))).rejects.toMatchObject({ errors: [{ extensions: { code: 'FORBIDDEN' } }] });
  });

  it('serverInfo() and serverHealth() of the SDK: the project and the status for anyone, more for an admin (issue 20.2)', async () => {
    const anonymous = createDirectus(p.url).with(rest());
    const info = (await anonymous.request(serverInfo())) as Record<string, unknown> & { project: { project_name: string } };
    expect(info.project.project_name).toBe('Vellum');
    expect(Object.keys(info)).toEqual(['project']);
    expect(await anonymous.request(serverHealth())).toEqual({ status: 'ok' });
    const admin = createDirectus(p.url)
      .with(staticToken((await p.login()).access_token))
      .with(rest());
    expect(await admin.request(serverInfo())).toMatchObject({ version: expect.any(String), queryLimit: { default: 100 } });
    const health = (await admin.request(serverHealth())) as { status: string; checks: Record<string, unknown> };
    expect(Object.keys(health.checks)).toEqual(expect.arrayContaining(['auth', 'revisions', 'items']));
  });

  it('cookie mode: the refresh cookie travels both ways through the proxy', async () => {
    const agent = request.agent(p.url);
    const login = await agent.post('/auth/login').send({ email: ADMIN.email, password: ADMIN.password, mode: 'cookie' });
    expect(login.status).toBe(200);
    expect(login.body.data.refresh_token).toBeUndefined();
    expect(String(login.headers['set-cookie'])).toMatch(/vellum_refresh_token=[^;]+; Max-Age=\d+; Path=\/;.*HttpOnly/);
    const refresh = await agent.post('/auth/refresh').send({ mode: 'cookie' });
    expect(refresh.status).toBe(200);
    expect(refresh.body.data).toEqual({ expires: 900000, access_token: expect.any(String) });
    expect((await agent.post('/auth/logout').send({ mode: 'cookie' })).status).toBe(204);
    expect((await agent.post('/auth/refresh').send({ mode: 'cookie' })).status).toBe(400);
  });

  it('session mode: the session cookie authenticates reads and dies at once on logout, in every service', async () => {
    const agent = request.agent(p.url);
    const login = await agent.post('/auth/login').send({ email: ADMIN.email, password: ADMIN.password, mode: 'session' });
    expect(login.body).toEqual({ data: { expires: 86400000 } });
    expect((await agent.get('/users/me')).body.data.email).toBe(ADMIN.email);
    expect((await agent.get('/revisions?limit=1')).status).toBe(200);
    expect((await agent.get('/revisions?limit=1')).body.data).toHaveLength(1);
    const cookie = String(login.headers['set-cookie']).match(/vellum_session_token=([^;]+)/)?.[1];
    expect(cookie).toBeTruthy();
    expect((await agent.post('/auth/logout').send({ mode: 'session' })).status).toBe(204);
    // Replay the old cookie by hand (the agent's jar was cleared by logout).
    const replay = (path: string) => request(p.url).get(path).set('Cookie', `vellum_session_token=${cookie}`);
    expect((await replay('/users/me')).status).toBe(401);
    const deadline = Date.now() + 2000;
    let status = 0;
    while (Date.now() < deadline && status !== 401) {
      status = (await replay('/revisions?limit=1')).status;
      if (status !== 401) await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe(401);
  });

  it('answers the contract errors early at the gateway', async () => {
    const { access_token } = await p.login();
    const both = await request(p.url).get(`/revisions?access_token=${access_token}`).set('Authorization', `Bearer ${access_token}`);
    expect(both.status).toBe(400);
    expect(both.body.errors[0].extensions.code).toBe('INVALID_PAYLOAD');
    const forged = access_token.slice(0, -4) + (access_token.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    expect((await request(p.url).get('/revisions').set('Authorization', `Bearer ${forged}`)).status).toBe(403);
    const nf = await request(p.url).get('/nothing-here');
    expect(nf.status).toBe(404);
    expect(nf.body.errors[0].extensions.code).toBe('ROUTE_NOT_FOUND');
    expect((await request(p.url).post('/revisions').set('Authorization', `Bearer ${access_token}`).send({})).status).toBe(404);
  });

  it('staticToken() of @directus/sdk reads revisions with a token an admin set through PATCH /users/:id (issue 14)', async () => {
    const admin = createDirectus(p.url)
      .with(staticToken((await p.login()).access_token))
      .with(rest());
    const [adminRole] = await admin.request(readRoles({ filter: { admin_access: { _eq: true } }, fields: ['id'] }));
    const user = await admin.request(createUser({ email: 'script@example.com', role: adminRole.id }));
    const secret = `directus-static-${Date.now()}-token`;
    const script = createDirectus(p.url).with(staticToken(secret)).with(rest());
    await expect(script.request(readRevisions({ limit: 1 }))).rejects.toMatchObject({ response: { status: 401 } });

    const updated = await admin.request(updateUser(user.id as string, { token: secret }));
    expect(JSON.stringify(updated)).not.toContain(secret);
    // the token's entry reaches the gateway and revisions through the API-tokens map
    const end = Date.now() + 5000;
    let revs: Record<string, unknown>[] | undefined;
    while (!revs && Date.now() < end) {
      revs = await script
        .request(readRevisions({ filter: { collection: { _eq: 'vellum_users' } }, fields: ['id', 'collection'], limit: 5 }))
        .catch(() => undefined);
      if (!revs) await new Promise((r) => setTimeout(r, 50));
    }
    expect(revs!.length).toBeGreaterThanOrEqual(1);
    expect(revs!.every((r) => r.collection === 'vellum_users')).toBe(true);
  });
});
