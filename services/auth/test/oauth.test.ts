import request from 'supertest';
import { ADMIN, code, cookiesOf, harness, type Harness } from './helpers';
import { callbackOf, client, oauthFlow, providersEnv, PUBLIC_URL } from './oidc/oauth-flow';
import { startOidcProvider, type RunningProvider } from './oidc/oidc-harness';

// The whole OpenID Connect code flow against a real provider (npm oidc-provider, in a child process on loopback).

let idp: RunningProvider;
let h: Harness;
beforeAll(async () => {
  idp = await startOidcProvider({ clients: [client('idp'), client('closed'), client('linker')] });
  const env = providersEnv(['idp', 'closed', 'linker'], () => ({ DRIVER: 'openid', ISSUER_URL: idp.issuer }));
  env.AUTH_IDP_ALLOW_PUBLIC_REGISTRATION = 'true';
  env.AUTH_IDP_LABEL = 'Our IdP';
  env.AUTH_IDP_REDIRECT_ALLOW_LIST = 'https://studio.example.com/after-login';
  env.AUTH_LINKER_LINK_EXISTING_BY_VERIFIED_EMAIL = 'true';
  h = await harness(env);
}, 30_000);
afterAll(async () => {
  await h?.close();
  await idp?.stop();
});

const { start, callback, throughProvider, me, expectReplayedStateRefused, expectTamperedStatesRefused, expectWrongVerifierRefused } = oauthFlow(() => h);

describe('OAuth / OpenID login against a real provider', () => {
  it('lists the providers (GET /auth/oauth, GET /auth)', async () => {
    expect((await request(h.app).get('/auth/oauth')).body).toEqual({ public: true, data: ['idp', 'closed', 'linker'] });
    const listing = await request(h.app).get('/auth');
    expect(listing.body.disableDefault).toBe(false);
    expect(listing.body.data[0]).toEqual({ name: 'idp', driver: 'openid', label: 'Our IdP', icon: 'account_circle' });
  });

  it('start: PKCE S256, state and nonce at the provider; a signed, HttpOnly, short-lived cookie', async () => {
    const s = await start('idp');
    const u = new URL(s.location);
    expect(u.origin).toBe(idp.issuer);
    expect(u.searchParams.get('code_challenge_method')).toBe('S256');
    expect(u.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(u.searchParams.get('state')!.length).toBeGreaterThanOrEqual(43);
    expect(u.searchParams.get('nonce')!.length).toBeGreaterThanOrEqual(43);
    expect(u.searchParams.get('redirect_uri')).toBe(callbackOf('idp'));
    expect(s.setCookie).toMatch(/HttpOnly/);
    expect(s.setCookie).toMatch(/Max-Age=600/);
    expect(s.setCookie).toMatch(/SameSite=Lax/);
    // the cookie is not the state itself and does not carry it readably next to a forgeable signature
    expect(s.cookie).not.toContain(u.searchParams.get('state'));
  });

  it('the whole flow without redirect → JSON tokens; the user is created keyed by (provider, subject)', async () => {
    const { returned, cookie } = await throughProvider('idp', 'olive');
    expect(returned.toString().startsWith(callbackOf('idp'))).toBe(true);
    expect(returned.searchParams.get('iss')).toBe(idp.issuer); // RFC 9207
    const r = await callback(returned, cookie);
    expect(r.status).toBe(200);
    expect(r.body.public).toBe(true);
    expect(Object.keys(r.body.data).sort()).toEqual(['access_token', 'expires', 'refresh_token']);
    expect(r.body.data.expires).toBe(900000);
    const user = (await me(r.body.data.access_token)).body.data;
    expect(user).toMatchObject({ email: 'olive@example.com', provider: 'idp', external_identifier: 'olive', first_name: 'Olive', status: 'active' });
    // the refresh token works
    expect((await request(h.app).post('/auth/refresh').send({ refresh_token: r.body.data.refresh_token })).status).toBe(200);
    // a second login finds the same user
    const again = await throughProvider('idp', 'olive');
    const r2 = await callback(again.returned, again.cookie);
    expect((await me(r2.body.data.access_token)).body.data.id).toBe(user.id);
    expect(await h.sql(`SELECT 1 FROM users WHERE provider = 'idp' AND external_identifier = 'olive'`)).toHaveLength(1);
  });

  it('with redirect → session cookie + 302 to it (same origin as PUBLIC_URL, or the allow list)', async () => {
    const { returned, cookie } = await throughProvider('idp', 'olive', '/admin/content?x=1');
    const r = await callback(returned, cookie);
    expect(r.status).toBe(302);
    expect(r.headers.location).toBe(`${PUBLIC_URL}/admin/content?x=1`);
    expect(r.body.data).toBeUndefined();
    const session = cookiesOf(r).vellum_session_token;
    expect(session).toBeTruthy();
    expect((await request(h.app).get('/users/me').set('Cookie', `vellum_session_token=${session}`)).body.data.email).toBe('olive@example.com');

    const allowed = await throughProvider('idp', 'olive', 'https://studio.example.com/after-login');
    const r2 = await callback(allowed.returned, allowed.cookie);
    expect(r2.status).toBe(302);
    expect(r2.headers.location).toBe('https://studio.example.com/after-login');
  });

  it('replayed state → refused (the state id is consumed once)', async () => {
    await expectReplayedStateRefused('idp');
  });

  it("tampered state → refused: altered cookie, missing cookie, state parameter not the cookie's", async () => {
    await expectTamperedStatesRefused('idp', { stateInForgery: true });
  });

  it('wrong PKCE verifier → the provider refuses the code exchange → refused', async () => {
    await expectWrongVerifierRefused('idp');
  });

  it('foreign iss in the authorization response (mix-up) → refused', async () => {
    const { returned, cookie } = await throughProvider('idp', 'olive');
    const mixed = new URL(returned);
    mixed.searchParams.set('iss', 'https://evil.example.com');
    expect(code(await callback(mixed, cookie))).toBe('INVALID_CREDENTIALS');
    // the provider advertises the parameter (authorization_response_iss_parameter_supported): it is then required
    const again = await throughProvider('idp', 'olive');
    const droppedAgain = new URL(again.returned);
    droppedAgain.searchParams.delete('iss');
    expect(code(await callback(droppedAgain, again.cookie))).toBe('INVALID_CREDENTIALS');
  });

  it.each(['//evil.com', 'https://vellum.local:8055@evil.com/', '/\\evil.com', 'https://evil.com/', 'javascript:alert(1)', 'https://studio.example.com/other'])(
    'open redirect %j refused at the start (400 INVALID_PAYLOAD)',
    async (redirect) => {
      const r = await request(h.app).get(`/auth/login/idp?redirect=${encodeURIComponent(redirect)}`);
      expect(r.status).toBe(400);
      expect(code(r)).toBe('INVALID_PAYLOAD');
      expect(r.headers['set-cookie']).toBeUndefined();
      expect((await request(h.app).get(`/auth/oauth/idp?redirect=${encodeURIComponent(redirect)}`)).status).toBe(400);
    },
  );

  it('unknown provider → 403 INVALID_PROVIDER (start, alias and callback)', async () => {
    for (const path of ['/auth/login/nope', '/auth/oauth/nope', '/auth/login/nope/callback?code=x&state=y']) {
      const r = await request(h.app).get(path);
      expect(r.status).toBe(403);
      expect(code(r)).toBe('INVALID_PROVIDER');
    }
    expect((await request(h.app).get('/auth/oauth/idp')).status).toBe(302);
  });

  it('no public registration → refused; no e-mail linking without the setting', async () => {
    const unknown = await throughProvider('closed', 'stranger');
    expect(code(await callback(unknown.returned, unknown.cookie))).toBe('INVALID_CREDENTIALS');
    expect(await h.sql(`SELECT 1 FROM users WHERE email = 'stranger@example.com'`)).toHaveLength(0);
    // the local admin's e-mail at the provider, verified: still not linked where the setting is off
    const admin = await throughProvider('closed', ADMIN.email);
    expect(code(await callback(admin.returned, admin.cookie))).toBe('INVALID_CREDENTIALS');
    const adminAtIdp = await throughProvider('idp', ADMIN.email);
    expect(code(await callback(adminAtIdp.returned, adminAtIdp.cookie))).toBe('INVALID_CREDENTIALS');
    expect((await request(h.app).post('/auth/login').send(ADMIN)).status).toBe(200);
  });

  it('linking by e-mail only when the provider says verified AND the setting allows it', async () => {
    const admin = (await request(h.app).post('/auth/login').send(ADMIN)).body.data.access_token;
    const create = (email: string) => request(h.app).post('/users').set('Authorization', `Bearer ${admin}`).send({ email, password: 'local-password-1' });
    await create('unverified-ulla@example.com');
    const unverified = await throughProvider('linker', 'unverified-ulla');
    expect(code(await callback(unverified.returned, unverified.cookie))).toBe('INVALID_CREDENTIALS');
    expect(await h.sql(`SELECT provider FROM users WHERE email = 'unverified-ulla@example.com'`)).toEqual([{ provider: 'default' }]);

    const local = (await create('vera@example.com')).body.data.id;
    const verified = await throughProvider('linker', 'vera');
    const r = await callback(verified.returned, verified.cookie);
    expect(r.status).toBe(200);
    expect((await me(r.body.data.access_token)).body.data).toMatchObject({ id: local, provider: 'linker', external_identifier: 'vera' });
  });
});
