import type { RequestHandler } from 'express';
import { errors } from '@vellum/errors';
import { extractAccessToken, isTokenRevoked, type TokenVerifier } from '@vellum/tokens';
import { tagUser } from '../metrics/gateway-metrics';

interface TokenCheckOptions {
  verifier: TokenVerifier;
  sessionCookieName?: string;
  /** Session (and session family) ids revoked by logout or an ended session (the auth service's KV bucket), when messaging is available. */
  isSessionRevoked?: (sessionId: string) => boolean;
  /**
   * Verify a session cookie too (default). /graphql/system turns this off: its auth_refresh/auth_logout
   * mutations take the session cookie as the refresh credential, exactly like POST /auth/refresh; the
   * subgraphs verify the cookie for every other operation.
   */
  checkCookie?: boolean;
}

/**
 * Early token checks (contract §1, §2): the transport rules (query + header → 400 INVALID_PAYLOAD; the session
 * cookie only when neither is present) and verification against the auth service's key set → 401
 * TOKEN_EXPIRED / 403 INVALID_TOKEN / 401 INVALID_CREDENTIALS before anything reaches a service. It only
 * rejects: the request then travels with its ORIGINAL credentials and the service verifies again.
 *
 * Mount it only on routes that take an access token. NOT on `/auth/*`: there a cookie or bearer value is not
 * (only) an access token — `POST /auth/refresh` and `/auth/logout` in session mode read the session cookie
 * as the refresh credential (its JWT may well be expired, that is why the client refreshes), and
 * `POST /auth/login`, `/auth/password/*`, the OAuth start/callback must work for a browser that still
 * carries a stale or expired cookie. Nor on `/server/*` and `/metrics`, which take no access token.
 */
export function tokenCheck({ verifier, sessionCookieName, isSessionRevoked, checkCookie = true }: TokenCheckOptions): RequestHandler {
  return async (req, res, next) => {
    const found = extractAccessToken(req, sessionCookieName);
    if (found && (checkCookie || found.source !== 'cookie')) {
      const claims = await verifier.verify(found.token);
      if (isSessionRevoked && isTokenRevoked(claims, isSessionRevoked)) {
        throw errors.tokenExpired();
      }
      tagUser(res, claims.id);
    }
    next();
  };
}
