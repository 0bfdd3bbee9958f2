import type { Request, Response } from 'express';
import { Router } from 'express';
import { serialize } from 'cookie';
import { errors } from '@vellum/errors';
import { route, sendJson, type RouteTable } from '@vellum/http';
import { readCookies } from '@vellum/tokens';
import type { AuthContext } from '../domain/context';
import { finishOAuthLogin, providerOf, startOAuthLogin } from '../domain/oauth-login.use-case';
import { OAUTH_STATE_COOKIE, OAUTH_STATE_TTL_MS } from '../domain/oauth-state';
import { authCookie } from '../domain/auth-cookies';
import { client } from './request-helpers';

/** The state cookie: HttpOnly, SameSite=Lax (sent on the provider's top-level redirect back), only to /auth. */
function stateCookie(ctx: AuthContext, value: string, maxAge: number) {
  return serialize(OAUTH_STATE_COOKIE, value, {
    httpOnly: true,
    path: '/auth',
    sameSite: 'lax',
    secure: ctx.config.COOKIE_SECURE,
    maxAge,
    ...(maxAge === 0 ? { expires: new Date(0) } : {}),
  });
}

/** GET /auth, GET /auth/oauth, the login start and callback (contract §3 "Providers and OAuth/OpenID login"). */
export function oauthRoutes(ctx: AuthContext): Router & RouteTable {
  const r = Router() as Router & RouteTable;
  route(r, 'get', '/auth', 'public', (_req, res) => {
    sendJson(res, { data: ctx.config.providers.map((p) => ({ name: p.name, driver: p.driver, label: p.label, icon: p.icon })), disableDefault: false });
  });
  route(r, 'get', '/auth/oauth', 'public', (_req, res) => {
    sendJson(res, { public: true, data: ctx.config.providers.map((p) => p.name) });
  });

  const start = async (req: Request, res: Response) => {
    const redirect = req.query.redirect;
    if (redirect !== undefined && typeof redirect !== 'string') throw errors.invalidPayload('"redirect" must be a string');
    const { location, state } = await startOAuthLogin(ctx, String(req.params.provider), redirect);
    res.append('Set-Cookie', stateCookie(ctx, ctx.oauth.states.seal(state), Math.floor(OAUTH_STATE_TTL_MS / 1000)));
    res.setHeader('Cache-Control', 'no-store');
    res.redirect(302, location);
  };
  route(r, 'get', '/auth/login/:provider', 'public', start);
  route(r, 'get', '/auth/oauth/:provider', 'public', start);

  route(r, 'get', '/auth/login/:provider/callback', 'public', async (req, res) => {
    const name = String(req.params.provider);
    providerOf(ctx, name);
    // single use on the client side too: the cookie is cleared whatever the outcome
    res.append('Set-Cookie', stateCookie(ctx, '', 0));
    res.setHeader('Cache-Control', 'no-store');
    const st = ctx.oauth.states.open(readCookies(req)[OAUTH_STATE_COOKIE], ctx.clock.now());
    const search = req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?')) : '';
    const { tokens: t, redirect } = await finishOAuthLogin(ctx, name, search, st, client(req));
    if (!redirect) {
      sendJson(res, { public: true, data: { access_token: t.access_token, refresh_token: t.refresh_token, expires: t.expires } });
      return;
    }
    if (t.mode === 'session') res.append('Set-Cookie', authCookie(ctx.config, ctx.config.SESSION_COOKIE_NAME, t.session_token!, t.cookieMaxAge));
    else res.append('Set-Cookie', authCookie(ctx.config, ctx.config.REFRESH_TOKEN_COOKIE_NAME, t.refresh_token!, t.cookieMaxAge));
    res.redirect(302, redirect);
  });
  return r;
}
