import { parse as parseCookie } from 'cookie';
import type { LoginRequest, RefreshRequest } from '@vellum/contracts';
import { AppError, errors } from '@vellum/errors';
import { authCookie, expiredAuthCookie } from './auth-cookies';
import type { AuthContext, ClientInfo } from './context';
import type { IssuedTokens } from './issue-tokens';
import { deviceCookie, deviceCookieOf } from './devices.use-case';
import { login } from './login.use-case';
import { logout } from './logout.use-case';
import { refresh, type PresentedCredential } from './refresh.use-case';

// Login, refresh and logout as both APIs answer them — POST /auth/login|refresh|logout and the GraphQL mutations
// auth_login|auth_refresh|auth_logout: the same rules, errors, body and cookies. The input is already validated
// with the contract's schema (the route's body schema, or parseBody in the resolver).

/** What came with the request besides its body: the headers (cookies, Sec-Fetch-Site, Origin) and the client. */
export interface PresentedRequest {
  headers: Record<string, string | string[] | undefined>;
  client: ClientInfo;
}

/** The answer's `data` and the `Set-Cookie` values to append (cookie and session modes; logout clears). */
export interface TokenAnswer {
  data: Record<string, unknown>;
  setCookies: string[];
}

const TOKEN_REQUIRED = 'The refresh token is required in either the payload or cookie';

const header = (r: PresentedRequest, name: string) => {
  const v = r.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

/**
 * Cookie-carried credentials must not be usable cross-site: a `Sec-Fetch-Site: cross-site` request or an Origin
 * other than PUBLIC_URL's is refused with 403 FORBIDDEN.
 */
function assertSameSite(ctx: AuthContext, r: PresentedRequest): void {
  if (header(r, 'sec-fetch-site') === 'cross-site') throw errors.forbidden();
  const origin = header(r, 'origin');
  if (origin && origin !== new URL(ctx.config.PUBLIC_URL).origin) throw errors.forbidden();
}

/** The body and cookie of a login/refresh answer, per mode. */
function answer(ctx: AuthContext, t: IssuedTokens): TokenAnswer {
  const { config } = ctx;
  if (t.mode === 'session') {
    return { data: { expires: t.expires }, setCookies: [authCookie(config, config.SESSION_COOKIE_NAME, t.session_token!, t.cookieMaxAge)] };
  }
  if (t.mode === 'cookie') {
    return {
      data: { expires: t.expires, access_token: t.access_token },
      setCookies: [authCookie(config, config.REFRESH_TOKEN_COOKIE_NAME, t.refresh_token!, t.cookieMaxAge)],
    };
  }
  return { data: { expires: t.expires, refresh_token: t.refresh_token, access_token: t.access_token }, setCookies: [] };
}

/** A login: the mode's answer, plus the device cookie (every mode: a client that keeps cookies is a trusted device). */
export async function answerLogin(ctx: AuthContext, b: LoginRequest, r: PresentedRequest): Promise<TokenAnswer> {
  const device = deviceCookieOf(ctx, header(r, 'cookie'));
  const input = { email: b.email, password: b.password, mode: b.mode ?? 'json', otp: b.otp ?? undefined, pow: b.pow ?? undefined, device };
  let result;
  try {
    result = await login(ctx, input, r.client);
  } catch (err) {
    ctx.countLogin?.(err instanceof AppError ? err.code.toLowerCase() : 'error');
    throw err;
  }
  ctx.countLogin?.('success');
  const a = answer(ctx, result.tokens);
  return { data: a.data, setCookies: [...a.setCookies, deviceCookie(ctx, result.device)] };
}

/** Mode default (json when the body has the token, else cookie) and where the credential comes from. */
function selectCredential(ctx: AuthContext, r: PresentedRequest, b: RefreshRequest) {
  const bodyToken = b.refresh_token ?? undefined;
  const mode = b.mode ?? (bodyToken ? 'json' : 'cookie');
  const cookieHeader = header(r, 'cookie');
  const cookies = cookieHeader ? parseCookie(cookieHeader) : {};
  let cred: PresentedCredential | undefined;
  let fromCookie = false;
  let invalid = false;
  if (mode === 'session' && cookies[ctx.config.SESSION_COOKIE_NAME]) {
    const sessionId = ctx.tokens.sessionIdOf(cookies[ctx.config.SESSION_COOKIE_NAME]!, ctx.clock.now());
    fromCookie = true;
    if (sessionId) cred = { sessionId };
    else invalid = true;
  } else if (bodyToken) {
    cred = { refreshToken: bodyToken };
  } else if (cookies[ctx.config.REFRESH_TOKEN_COOKIE_NAME]) {
    cred = { refreshToken: cookies[ctx.config.REFRESH_TOKEN_COOKIE_NAME]! };
    fromCookie = true;
  }
  return { mode, cred, fromCookie, invalid, cookies };
}

export async function answerRefresh(ctx: AuthContext, b: RefreshRequest, r: PresentedRequest): Promise<TokenAnswer> {
  const { mode, cred, fromCookie, invalid } = selectCredential(ctx, r, b);
  if (fromCookie) assertSameSite(ctx, r);
  if (invalid) throw errors.invalidCredentials();
  if (!cred) throw errors.invalidPayload(TOKEN_REQUIRED);
  return answer(ctx, await refresh(ctx, cred, mode, r.client));
}

/** Ends the presented session (an unknown one is not an error) and clears the auth cookies the caller sent. */
export async function answerLogout(ctx: AuthContext, b: RefreshRequest, r: PresentedRequest): Promise<TokenAnswer> {
  const { cred, fromCookie, invalid, cookies } = selectCredential(ctx, r, b);
  if (fromCookie) assertSameSite(ctx, r);
  if (!cred && !invalid) throw errors.invalidPayload(TOKEN_REQUIRED);
  if (cred) await logout(ctx, cred, r.client);
  const names = [ctx.config.REFRESH_TOKEN_COOKIE_NAME, ctx.config.SESSION_COOKIE_NAME].filter((name) => cookies[name] !== undefined);
  return { data: {}, setCookies: names.map((name) => expiredAuthCookie(ctx.config, name)) };
}
