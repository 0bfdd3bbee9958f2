import type { Request } from 'express';
import { parse as parseCookie } from 'cookie';
import { errors } from '@vellum/errors';

export const DEFAULT_SESSION_COOKIE = 'vellum_session_token';

export function readCookies(req: Request): Record<string, string | undefined> {
  return req.headers.cookie ? parseCookie(req.headers.cookie) : {};
}

/**
 * The contract's transport rules: `?access_token=`, then `Authorization: Bearer`, then the session cookie
 * (only when neither). Query parameter and header together → 400 INVALID_PAYLOAD.
 */
export function extractAccessToken(req: Request, sessionCookieName = DEFAULT_SESSION_COOKIE): { token: string; source: 'query' | 'header' | 'cookie' } | null {
  const q = req.query?.access_token;
  const fromQuery = typeof q === 'string' && q ? q : undefined;
  const auth = req.headers.authorization;
  let fromHeader: string | undefined;
  if (auth) {
    const m = /^Bearer\s+(.+)$/i.exec(auth.trim());
    if (m) fromHeader = m[1].trim();
  }
  if (fromQuery && fromHeader) {
    throw errors.invalidPayload('The request uses more than one method for including an access token');
  }
  if (fromQuery) return { token: fromQuery, source: 'query' };
  if (fromHeader) return { token: fromHeader, source: 'header' };
  const cookie = readCookies(req)[sessionCookieName];
  return cookie ? { token: cookie, source: 'cookie' } : null;
}
