import type { Request, RequestHandler } from 'express';
import { clientInfo, publicAccountability } from '@vellum/http';
import { extractAccessToken } from '@vellum/tokens';

/** What the token check said of a request's session cookie, when it let the request through as the public role. */
const cookieErrors = new WeakMap<Request, unknown>();

/** The error of a session cookie that failed the token check (see `graphqlAuthenticate`), if any. */
export const cookieTokenError = (req: Request): unknown => cookieErrors.get(req);

/**
 * The token check in front of the auth subgraph. A session cookie that fails it (its session ended, or it expired)
 * does not fail the whole operation: `auth_refresh` and `auth_logout` read that cookie themselves and answer as
 * POST /auth/refresh and /auth/logout do (an ended session → INVALID_CREDENTIALS; a logout of it → done). The caller
 * is then the public role, and what needs the caller (`users_me`, user entities) answers the check's error
 * (`cookieTokenError`). A bad token in the header or the query fails the operation, as everywhere else.
 */
export function graphqlAuthenticate(authenticated: RequestHandler, sessionCookieName: string): RequestHandler {
  return (req, res, next) => {
    let settled = false;
    const done = (err?: unknown) => {
      if (settled) return;
      settled = true;
      if (err === undefined || err === null || typeof err === 'string') return next(err as undefined);
      let source: string | undefined;
      try {
        source = extractAccessToken(req, sessionCookieName)?.source;
      } catch {
        return next(err);
      }
      if (source !== 'cookie') return next(err);
      const client = clientInfo(req);
      req.accountability = { ...publicAccountability(), ip: client.ip, userAgent: client.userAgent, origin: client.origin };
      cookieErrors.set(req, err);
      next();
    };
    Promise.resolve(authenticated(req, res, done)).catch(done);
  };
}
