import type { Request, Response } from 'express';
import type { LoginRequest, PasswordRequest, PasswordReset, RefreshRequest } from '@vellum/contracts';
import { AppError, errors } from '@vellum/errors';
import { readCookies } from '@vellum/tokens';
import type { AuthContext } from '../domain/context';
import type { IssuedTokens } from '../domain/issue-tokens';
import { login } from '../domain/login.use-case';
import { logout } from '../domain/logout.use-case';
import { requestPasswordReset } from '../domain/password-request.use-case';
import { resetPassword } from '../domain/password-reset.use-case';
import { refresh, type PresentedCredential } from '../domain/refresh.use-case';
import { clearCookie, setCookie } from './cookies';
import { assertSameSite, client } from './request-helpers';

// The operations behind both the REST routes and the GraphQL mutations (same rules, same errors). Their input is
// already validated with the contract's schema (the route's body schema, or parseBody in the resolver).

const TOKEN_REQUIRED = 'The refresh token is required in either the payload or cookie';

/** The body and cookies of a login/refresh answer, per mode. */
function respond(ctx: AuthContext, res: Response, t: IssuedTokens): Record<string, unknown> {
  const { config } = ctx;
  if (t.mode === 'session') {
    setCookie(res, config, config.SESSION_COOKIE_NAME, t.session_token!, t.cookieMaxAge);
    return { expires: t.expires };
  }
  if (t.mode === 'cookie') {
    setCookie(res, config, config.REFRESH_TOKEN_COOKIE_NAME, t.refresh_token!, t.cookieMaxAge);
    return { expires: t.expires, access_token: t.access_token };
  }
  return { expires: t.expires, refresh_token: t.refresh_token, access_token: t.access_token };
}

export async function loginOperation(ctx: AuthContext, req: Request, res: Response, b: LoginRequest) {
  const input = { email: b.email, password: b.password, mode: b.mode ?? 'json', otp: b.otp ?? undefined };
  let result;
  try {
    result = await login(ctx, input, client(req));
  } catch (err) {
    ctx.countLogin?.(err instanceof AppError ? err.code.toLowerCase() : 'error');
    throw err;
  }
  ctx.countLogin?.('success');
  return respond(ctx, res, result);
}

/** Mode default (json when the body has the token, else cookie) and where the credential comes from. */
function selectCredential(ctx: AuthContext, req: Request, b: RefreshRequest) {
  const bodyToken = b.refresh_token ?? undefined;
  const mode = b.mode ?? (bodyToken ? 'json' : 'cookie');
  const cookies = readCookies(req);
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

export async function refreshOperation(ctx: AuthContext, req: Request, res: Response, b: RefreshRequest) {
  const { mode, cred, fromCookie, invalid } = selectCredential(ctx, req, b);
  if (fromCookie) assertSameSite(req, ctx.config);
  if (invalid) throw errors.invalidCredentials();
  if (!cred) throw errors.invalidPayload(TOKEN_REQUIRED);
  return respond(ctx, res, await refresh(ctx, cred, mode, client(req)));
}

export async function logoutOperation(ctx: AuthContext, req: Request, res: Response, b: RefreshRequest): Promise<void> {
  const { cred, fromCookie, invalid, cookies } = selectCredential(ctx, req, b);
  if (fromCookie) assertSameSite(req, ctx.config);
  if (!cred && !invalid) throw errors.invalidPayload(TOKEN_REQUIRED);
  if (cred) await logout(ctx, cred, client(req));
  for (const name of [ctx.config.REFRESH_TOKEN_COOKIE_NAME, ctx.config.SESSION_COOKIE_NAME]) {
    if (cookies[name] !== undefined) clearCookie(res, ctx.config, name);
  }
}

export async function passwordRequestOperation(ctx: AuthContext, b: PasswordRequest): Promise<void> {
  await requestPasswordReset(ctx, b.email, b.reset_url ?? undefined);
}

export async function passwordResetOperation(ctx: AuthContext, req: Request, b: PasswordReset): Promise<void> {
  await resetPassword(ctx, b.token, b.password, client(req));
}
