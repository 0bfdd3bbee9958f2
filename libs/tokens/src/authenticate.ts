import type { RequestHandler } from 'express';
import { errors } from '@vellum/errors';
import { clientInfo, publicAccountability } from '@vellum/http';
import { extractAccessToken, DEFAULT_SESSION_COOKIE } from './extract-access-token';
import { isTokenRevoked, type RevocationCheck } from './revocation';
import type { TokenVerifier } from './token-verifier';

export interface AuthenticateOptions {
  verifier: TokenVerifier;
  sessionCookieName?: string;
  /**
   * Tokens die at once when their session ends: answer true for a revoked/unknown session id (`session` claim)
   * or session family id (`sid` claim, `kind` 'family').
   */
  isSessionRevoked?: RevocationCheck;
}

/** Sets `req.accountability` from the access token (public role when there is none). */
export function authenticate({ verifier, sessionCookieName = DEFAULT_SESSION_COOKIE, isSessionRevoked }: AuthenticateOptions): RequestHandler {
  return async (req, _res, next) => {
    const client = clientInfo(req);
    const found = extractAccessToken(req, sessionCookieName);
    if (!found) {
      req.accountability = { ...publicAccountability(), ip: client.ip, userAgent: client.userAgent, origin: client.origin };
      return next();
    }
    const claims = await verifier.verify(found.token);
    if (isSessionRevoked && (await isTokenRevoked(claims, isSessionRevoked))) {
      throw errors.tokenExpired();
    }
    req.accountability = {
      user: claims.id,
      role: claims.role,
      admin: claims.admin_access,
      app: claims.app_access,
      session: claims.session ?? null,
      sessionFamily: claims.sid ?? null,
      ip: client.ip,
      userAgent: client.userAgent,
      origin: client.origin,
    };
    next();
  };
}
