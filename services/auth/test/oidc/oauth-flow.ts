import request from 'supertest';
import { OAUTH_STATE_COOKIE } from '../../src/domain/oauth-state';
import { code, cookiesOf, type Harness } from '../helpers';
import { loginAtProvider } from './oidc-harness';

// What the OAuth login tests of both drivers (oauth.test.ts: openid, oauth2.test.ts: oauth2) share: the provider's
// clients, and the browser's side of the flow against the auth app.

export const PUBLIC_URL = 'http://vellum.local:8055';
export const callbackOf = (p: string) => `${PUBLIC_URL}/auth/login/${p}/callback`;
/** The provider's client registration for `id` (its secret `<id>-secret`, its callback at PUBLIC_URL). */
export const client = (id: string) => ({
  client_id: id,
  client_secret: `${id}-secret`,
  redirect_uris: [callbackOf(id)],
  response_types: ['code'],
  grant_types: ['authorization_code'],
  token_endpoint_auth_method: 'client_secret_basic',
});

/** AUTH_PROVIDERS and each provider's AUTH_<P>_CLIENT_ID/SECRET (the client above), plus what `more` adds for it. */
export function providersEnv(providers: string[], more: (p: string) => Record<string, string>): Record<string, string> {
  const env: Record<string, string> = { AUTH_PROVIDERS: providers.join(','), PUBLIC_URL };
  for (const p of providers) {
    const P = p.toUpperCase();
    Object.assign(env, { [`AUTH_${P}_CLIENT_ID`]: p, [`AUTH_${P}_CLIENT_SECRET`]: `${p}-secret` });
    for (const [key, value] of Object.entries(more(p))) env[`AUTH_${P}_${key}`] = value;
  }
  return env;
}

/** The browser's steps against the harness `h()` (read when called: the harness is made in beforeAll). */
export function oauthFlow(h: () => Harness) {
  async function start(provider: string, redirect?: string) {
    const r = await request(h().app).get(`/auth/login/${provider}${redirect === undefined ? '' : `?redirect=${encodeURIComponent(redirect)}`}`);
    expect(r.status).toBe(302);
    const cookie = cookiesOf(r)[OAUTH_STATE_COOKIE];
    expect(cookie).toBeTruthy();
    return { location: r.headers.location as string, cookie, setCookie: (r.headers['set-cookie'] as unknown as string[]).join('\n') };
  }
  const callback = (url: URL, cookie: string | undefined) => {
    const r = request(h().app).get(url.pathname + url.search);
    return cookie === undefined ? r : r.set('Cookie', `${OAUTH_STATE_COOKIE}=${cookie}`);
  };
  /** start → provider login → the callback URL the provider sends the browser to (with code, state, iss). */
  async function throughProvider(provider: string, login: string, redirect?: string) {
    const s = await start(provider, redirect);
    return { ...s, returned: await loginAtProvider(s.location, login) };
  }
  const me = (token: string) => request(h().app).get('/users/me').set('Authorization', `Bearer ${token}`);

  /** A correctly sealed state whose PKCE verifier is not the one the challenge was made from (an intercepted code): 401. */
  async function expectWrongVerifierRefused(provider: string) {
    const { returned, cookie } = await throughProvider(provider, 'olive');
    const st = h().built.ctx.oauth.states.open(cookie, new Date())!;
    const wrong = h().built.ctx.oauth.states.seal({ ...st, id: `${st.id}-2`, verifier: 'w'.repeat(64) });
    const r = await callback(returned, wrong);
    expect(r.status).toBe(401);
    expect(code(r)).toBe('INVALID_CREDENTIALS');
  }

  /** A state is consumed once: replayed after a success, or after a callback that failed past the state check. */
  async function expectReplayedStateRefused(provider: string) {
    const { returned, cookie } = await throughProvider(provider, 'olive');
    expect((await callback(returned, cookie)).status).toBe(200);
    const replay = await callback(returned, cookie);
    expect(replay.status).toBe(401);
    expect(code(replay)).toBe('INVALID_CREDENTIALS');

    // refused by the consumed state itself, not only by the provider's used code: a first callback that fails
    // after the state check (foreign iss) uses the state up; the genuine, never-exchanged code is then refused
    const second = await throughProvider(provider, 'olive');
    const mixed = new URL(second.returned);
    mixed.searchParams.set('iss', 'https://evil.example.com');
    expect(code(await callback(mixed, second.cookie))).toBe('INVALID_CREDENTIALS');
    expect(code(await callback(second.returned, second.cookie))).toBe('INVALID_CREDENTIALS');
    // a fresh start works
    const third = await throughProvider(provider, 'olive');
    expect((await callback(third.returned, third.cookie)).status).toBe(200);
  }

  /**
   * Refused, without using the state up: the cookie altered (another verifier; `stateInForgery`: the state put in
   * readably), a forged signature, no cookie, another state parameter, and what `more` checks. The genuine
   * state then still works once.
   */
  async function expectTamperedStatesRefused(
    provider: string,
    opts: { stateInForgery?: boolean; more?: (returned: URL, cookie: string) => Promise<void> } = {},
  ) {
    const { returned, cookie } = await throughProvider(provider, 'olive');
    const [body, sig] = cookie.split('.');
    const forged = JSON.parse(Buffer.from(body, 'base64url').toString());
    if (opts.stateInForgery) forged.state = returned.searchParams.get('state');
    forged.verifier = 'x'.repeat(43);
    const tampered = `${Buffer.from(JSON.stringify(forged)).toString('base64url')}.${sig}`;
    expect(code(await callback(returned, tampered))).toBe('INVALID_CREDENTIALS');
    expect(code(await callback(returned, `${body}.${'A'.repeat(43)}`))).toBe('INVALID_CREDENTIALS');
    expect(code(await callback(returned, undefined))).toBe('INVALID_CREDENTIALS');
    const otherState = new URL(returned);
    otherState.searchParams.set('state', 'attacker-state');
    expect(code(await callback(otherState, cookie))).toBe('INVALID_CREDENTIALS');
    await opts.more?.(returned, cookie);
    // none of those consumed the genuine state: it still works once
    expect((await callback(returned, cookie)).status).toBe(200);
  }

  return { start, callback, throughProvider, me, expectReplayedStateRefused, expectTamperedStatesRefused, expectWrongVerifierRefused };
}
