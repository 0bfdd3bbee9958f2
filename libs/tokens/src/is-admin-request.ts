import type { Request } from 'express';
import type { AccessTokenClaims } from './claims';
import { extractAccessToken, DEFAULT_SESSION_COOKIE } from './extract-access-token';
import { isTokenRevoked, type RevocationCheck } from './revocation';
import type { TokenVerifier } from './token-verifier';

export interface RequestClaimsOptions {
  sessionCookieName?: string;
  /** A revoked session (session mode) or session family (`sid`) makes the token count as none. */
  isSessionRevoked?: RevocationCheck;
}

/**
 * The claims of the request's access token, or undefined (no token, a bad or expired one, a revoked session):
 * for operator views that answer everyone, more to some (health details, server info). Never throws.
 */
export function requestClaims(verifier: TokenVerifier, opts: RequestClaimsOptions = {}): (req: Request) => Promise<AccessTokenClaims | undefined> {
  return async (req) => {
    try {
      const found = extractAccessToken(req, opts.sessionCookieName ?? DEFAULT_SESSION_COOKIE);
      if (!found) return undefined;
      const claims = await verifier.verify(found.token);
      if (opts.isSessionRevoked && (await isTokenRevoked(claims, opts.isSessionRevoked))) return undefined;
      return claims;
    } catch {
      return undefined;
    }
  };
}

/** Whether the request carries a valid access token of an admin role. Never throws. */
export function isAdminRequest(verifier: TokenVerifier, opts: RequestClaimsOptions = {}): (req: Request) => Promise<boolean> {
  const claimsOf = requestClaims(verifier, opts);
  return async (req) => (await claimsOf(req))?.admin_access === true;
}
