// The GraphQL mutations auth_login / auth_refresh / auth_logout answer as POST /auth/login|refresh|logout do (one
// set of domain functions: domain/token-answers.use-case.ts): the same cookies with the same attributes, the
// credential from the session or refresh cookie, the same-site rule for cookie credentials, cookies cleared.
import request from 'supertest';
import { ADMIN, code, harness, modeCookies, setCookieHeaders, type Harness } from './helpers';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

const gql = (query: string, headers: Record<string, string> = {}) => {
  const r = request(h.app).post('/graphql').set('Content-Type', 'application/json');
  for (const [k, v] of Object.entries(headers)) r.set(k, v);
  return r.send({ query });
};
const login = (mode: string) =>
  `mutation { auth_login(email: "${ADMIN.email}", password: "${ADMIN.password}", mode: ${mode}) { access_token refresh_token expires } }`;
/** A Set-Cookie value without the token: name and attributes. */
const attributes = (setCookie: string) => setCookie.replace(/=[^;]*/, '=<token>');
const pair = (setCookie: string) => setCookie.split(';')[0]!;

describe('GraphQL auth mutations and the REST routes answer alike', () => {
  it('session mode: the same session cookie; refresh and logout read it; a cross-site refresh is refused', async () => {
    const rest = await request(h.app).post('/auth/login').send({ email: ADMIN.email, password: ADMIN.password, mode: 'session' });
    const viaGql = await gql(login('session'));
    expect(viaGql.body.data.auth_login).toEqual({ access_token: null, refresh_token: null, expires: String(rest.body.data.expires) });
    expect(setCookieHeaders(viaGql).map(attributes)).toEqual(setCookieHeaders(rest).map(attributes));
    expect(setCookieHeaders(viaGql)[0]).toMatch(/^vellum_session_token=.+; Max-Age=\d+; Path=\/; HttpOnly; SameSite=Lax$/);
    const cookie = pair(setCookieHeaders(viaGql)[0]!);

    const crossSite = await gql('mutation { auth_refresh(mode: session) { expires } }', { Cookie: cookie, 'Sec-Fetch-Site': 'cross-site' });
    expect(code(crossSite)).toBe('FORBIDDEN');
    const otherOrigin = await gql('mutation { auth_refresh(mode: session) { expires } }', { Cookie: cookie, Origin: 'https://evil.example' });
    expect(code(otherOrigin)).toBe('FORBIDDEN');

    const refreshed = await gql('mutation { auth_refresh(mode: session) { access_token expires } }', { Cookie: cookie, Origin: 'http://vellum.local:8055' });
    expect(refreshed.body.data.auth_refresh).toEqual({ access_token: null, expires: String(rest.body.data.expires) });
    expect(setCookieHeaders(refreshed).map(attributes)).toEqual(modeCookies(rest).map(attributes));
    const next = pair(setCookieHeaders(refreshed)[0]!);
    expect(next).not.toBe(cookie);

    const out = await gql('mutation { auth_logout(mode: session) }', { Cookie: next });
    expect(out.body.data.auth_logout).toBe(true);
    expect(setCookieHeaders(out)).toEqual([
      expect.stringMatching(/^vellum_session_token=; Max-Age=0; Path=\/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax$/),
    ]);
    // the GraphQL logout ended the session: its cookie no longer refreshes
    expect(code(await request(h.app).post('/auth/refresh').set('Cookie', next).send({ mode: 'session' }))).toBe('INVALID_CREDENTIALS');
    // nor through GraphQL: the same answer as REST (an ended session is not a token that expired)
    const dead = await gql('mutation { auth_refresh(mode: session) { expires } }', { Cookie: next, Origin: 'http://vellum.local:8055' });
    expect(code(dead)).toBe('INVALID_CREDENTIALS');
    expect(code(await gql('mutation { auth_refresh(mode: session) { expires } }', { Cookie: cookie, Origin: 'http://vellum.local:8055' }))).toBe(
      'INVALID_CREDENTIALS',
    );
    // what needs the caller still answers the cookie's own error; a logout of an ended session is done, as over REST
    expect(code(await gql('{ users_me { id } }', { Cookie: next }))).toBe('TOKEN_EXPIRED');
    expect((await gql('mutation { auth_logout(mode: session) }', { Cookie: next })).body.data.auth_logout).toBe(true);
    expect((await request(h.app).post('/auth/logout').set('Cookie', next).send({ mode: 'session' })).status).toBe(204);
  });

  it('cookie mode: the refresh token in the cookie, the access token in the answer; no credential at all is INVALID_PAYLOAD', async () => {
    const viaGql = await gql(login('cookie'));
    expect(viaGql.body.data.auth_login.access_token).toBeTruthy();
    expect(viaGql.body.data.auth_login.refresh_token).toBeNull();
    const [set] = setCookieHeaders(viaGql);
    expect(set).toMatch(/^vellum_refresh_token=.+; Path=\/; HttpOnly; SameSite=Lax$/);
    const refreshed = await gql('mutation { auth_refresh { access_token refresh_token } }', { Cookie: pair(set!) });
    expect(refreshed.body.data.auth_refresh.access_token).toBeTruthy();
    expect(refreshed.body.data.auth_refresh.refresh_token).toBeNull();
    expect(setCookieHeaders(refreshed)[0]).toMatch(/^vellum_refresh_token=/);
    expect(code(await gql('mutation { auth_refresh { access_token } }'))).toBe('INVALID_PAYLOAD');
    expect(code(await gql('mutation { auth_logout }'))).toBe('INVALID_PAYLOAD');
  });
});
