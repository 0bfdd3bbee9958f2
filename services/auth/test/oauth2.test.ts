import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { OAUTH_STATE_COOKIE } from '../src/domain/oauth-state';
import { code, cookiesOf, harness, type Harness } from './helpers';
import { callbackOf, client, oauthFlow, providersEnv, PUBLIC_URL } from './oidc/oauth-flow';
import { startOidcProvider, type RunningProvider } from './oidc/oidc-harness';

// The `oauth2` driver (explicit AUTHORIZE/ACCESS/PROFILE URLs, no discovery, no ID token checks) against a real
// OAuth 2 server: npm oidc-provider in a child process, addressed only by its authorization (/auth), token (/token)
// and userinfo (/me) endpoints. Its userinfo endpoint wants an access token with the `openid` scope, hence SCOPE.

// byemail: the default IDENTIFIER_KEY of the driver (email); bysub: IDENTIFIER_KEY=sub, MODE=cookie;
// noid: an IDENTIFIER_KEY the profile lacks; badprofile: a PROFILE_URL that answers 502 (with a JSON error body)
const PROVIDERS = ['byemail', 'bysub', 'noid', 'badprofile'];

let idp: RunningProvider;
let h: Harness;
let failingProfile: Server;
beforeAll(async () => {
  idp = await startOidcProvider({ clients: PROVIDERS.map(client) });
  const env = providersEnv(PROVIDERS, () => ({
    DRIVER: 'oauth2',
    AUTHORIZE_URL: `${idp.issuer}/auth`,
    ACCESS_URL: `${idp.issuer}/token`,
    PROFILE_URL: `${idp.issuer}/me`,
    SCOPE: 'openid email profile',
    ALLOW_PUBLIC_REGISTRATION: 'true',
  }));
  env.AUTH_BYSUB_IDENTIFIER_KEY = 'sub';
  env.AUTH_BYSUB_MODE = 'cookie';
  env.AUTH_NOID_IDENTIFIER_KEY = 'login_name';
  // a profile endpoint that fails with a JSON body which, read as a profile, would name a user
  failingProfile = createServer((_req, res) => {
    res.writeHead(502, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ email: 'mallory@example.com', error: 'upstream unavailable' }));
  });
  await new Promise<void>((resolve) => failingProfile.listen(0, '127.0.0.1', resolve));
  env.AUTH_BADPROFILE_PROFILE_URL = `http://127.0.0.1:${(failingProfile.address() as AddressInfo).port}/profile`;
  h = await harness(env);
}, 30_000);
afterAll(async () => {
  await h?.close();
  await idp?.stop();
  await new Promise((resolve) => (failingProfile ? failingProfile.close(resolve) : resolve(undefined)));
});

const { start, callback, throughProvider, me, expectReplayedStateRefused, expectTamperedStatesRefused, expectWrongVerifierRefused } = oauthFlow(() => h);
const users = (provider: string) => h.sql(`SELECT email, external_identifier FROM users WHERE provider = $1 ORDER BY external_identifier`, [provider]);

describe('oauth2 driver (explicit endpoints) against a real OAuth 2 server', () => {
  it('uses exactly the configured endpoints: no discovery, no nonce; PKCE S256 and state at the authorization URL', async () => {
    const config = await h.built.ctx.oauth.clients.get(h.config.providers.find((p) => p.name === 'byemail')!);
    expect(config.serverMetadata()).toEqual({
      issuer: idp.issuer,
      authorization_endpoint: `${idp.issuer}/auth`,
      token_endpoint: `${idp.issuer}/token`,
      userinfo_endpoint: `${idp.issuer}/me`,
    });
    const s = await start('byemail');
    const u = new URL(s.location);
    expect(`${u.origin}${u.pathname}`).toBe(`${idp.issuer}/auth`);
    expect(u.searchParams.get('client_id')).toBe('byemail');
    expect(u.searchParams.get('response_type')).toBe('code');
    expect(u.searchParams.get('scope')).toBe('openid email profile');
    expect(u.searchParams.get('redirect_uri')).toBe(callbackOf('byemail'));
    expect(u.searchParams.get('code_challenge_method')).toBe('S256');
    expect(u.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(u.searchParams.get('state')!.length).toBeGreaterThanOrEqual(43);
    expect(u.searchParams.has('nonce')).toBe(false);
    const listing = await request(h.app).get('/auth');
    expect(listing.body.data[0]).toEqual({ name: 'byemail', driver: 'oauth2', label: 'byemail', icon: 'lock' });
  });

  it("without redirect → JSON tokens; the user is keyed by (provider, the profile's email) — the default identifier", async () => {
    const { returned, cookie } = await throughProvider('byemail', 'olive');
    expect(returned.toString().startsWith(callbackOf('byemail'))).toBe(true);
    const r = await callback(returned, cookie);
    expect(r.status).toBe(200);
    expect(r.body.public).toBe(true);
    expect(Object.keys(r.body.data).sort()).toEqual(['access_token', 'expires', 'refresh_token']);
    const user = (await me(r.body.data.access_token)).body.data;
    // first name from the provider's userinfo (profile scope) — the profile really came from PROFILE_URL
    expect(user).toMatchObject({
      email: 'olive@example.com',
      provider: 'byemail',
      external_identifier: 'olive@example.com',
      first_name: 'Olive',
      status: 'active',
    });
    expect((await request(h.app).post('/auth/refresh').send({ refresh_token: r.body.data.refresh_token })).status).toBe(200);
    // a second login finds the same user
    const again = await throughProvider('byemail', 'olive');
    const r2 = await callback(again.returned, again.cookie);
    expect(r2.status).toBe(200);
    expect((await me(r2.body.data.access_token)).body.data.id).toBe(user.id);
    expect(await users('byemail')).toEqual([{ email: 'olive@example.com', external_identifier: 'olive@example.com' }]);
  });

  it('IDENTIFIER_KEY=sub: found by (provider, sub) — not by e-mail, not under another provider', async () => {
    const login = async () => {
      const s = await throughProvider('bysub', 'sam');
      const r = await callback(s.returned, s.cookie);
      expect(r.status).toBe(200);
      return (await me(r.body.data.access_token)).body.data;
    };
    const user = await login();
    expect(user).toMatchObject({ email: 'sam@example.com', provider: 'bysub', external_identifier: 'sam' });
    expect(await users('bysub')).toEqual([{ email: 'sam@example.com', external_identifier: 'sam' }]);
    // the local e-mail no longer matches the provider's: still the same user (the key is the identifier)
    await h.sql(`UPDATE users SET email = 'sam-renamed@example.com' WHERE id = $1`, [user.id]);
    expect((await login()).id).toBe(user.id);
    // the same identifier under another provider is not this user: a new one is registered
    await h.sql(`UPDATE users SET provider = 'elsewhere' WHERE id = $1`, [user.id]);
    const fresh = await login();
    expect(fresh.id).not.toBe(user.id);
    expect(fresh).toMatchObject({ email: 'sam@example.com', provider: 'bysub', external_identifier: 'sam' });
  });

  it('with redirect → 302 + session cookie (MODE default session), or the refresh cookie (MODE=cookie)', async () => {
    const s = await throughProvider('byemail', 'olive', '/admin/content?x=1');
    const r = await callback(s.returned, s.cookie);
    expect(r.status).toBe(302);
    expect(r.headers.location).toBe(`${PUBLIC_URL}/admin/content?x=1`);
    expect(r.body.data).toBeUndefined();
    const jar = cookiesOf(r);
    expect(jar[OAUTH_STATE_COOKIE]).toBe(''); // the state cookie is cleared
    expect(jar.vellum_session_token).toBeTruthy();
    const whoami = await request(h.app).get('/users/me').set('Cookie', `vellum_session_token=${jar.vellum_session_token}`);
    expect(whoami.body.data).toMatchObject({ provider: 'byemail', external_identifier: 'olive@example.com' });

    const c = await throughProvider('bysub', 'sam', '/admin');
    const r2 = await callback(c.returned, c.cookie);
    expect(r2.status).toBe(302);
    expect(r2.headers.location).toBe(`${PUBLIC_URL}/admin`);
    const refresh = cookiesOf(r2).vellum_refresh_token;
    expect(refresh).toBeTruthy();
    expect(cookiesOf(r2).vellum_session_token).toBeUndefined();
    const refreshed = await request(h.app).post('/auth/refresh').set('Cookie', `vellum_refresh_token=${refresh}`).send({ mode: 'json' });
    expect(refreshed.status).toBe(200);
    expect((await me(refreshed.body.data.access_token)).body.data).toMatchObject({ provider: 'bysub', external_identifier: 'sam' });
  });

  it('replayed state → refused, also when the provider never saw the code (state consumed once)', async () => {
    await expectReplayedStateRefused('byemail');
  });

  it('tampered state → refused: altered cookie, forged signature, missing cookie, another state, another provider', async () => {
    await expectTamperedStatesRefused('byemail', {
      // the byemail state presented at bysub's callback
      more: async (returned, cookie) => {
        const elsewhere = new URL(returned);
        elsewhere.pathname = '/auth/login/bysub/callback';
        expect(code(await callback(elsewhere, cookie))).toBe('INVALID_CREDENTIALS');
      },
    });
  });

  it('wrong PKCE verifier (a correctly sealed state) → the token endpoint refuses → 401', async () => {
    await expectWrongVerifierRefused('byemail');
  });

  it('a profile without the identifier key, or a profile URL that fails (non-2xx JSON) → refused, no user created', async () => {
    const noid = await throughProvider('noid', 'nora');
    expect(code(await callback(noid.returned, noid.cookie))).toBe('INVALID_CREDENTIALS');
    const bad = await throughProvider('badprofile', 'bella');
    expect(code(await callback(bad.returned, bad.cookie))).toBe('INVALID_CREDENTIALS');
    expect(await h.sql(`SELECT email FROM users WHERE provider IN ('noid', 'badprofile')`)).toEqual([]);
  });
});
