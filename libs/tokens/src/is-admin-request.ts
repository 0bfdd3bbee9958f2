import type { Request } from 'express';
import { extractAccessToken, DEFAULT_SESSION_COOKIE } from './extract-access-token';
import type { TokenVerifier } from './token-verifier';

/**
 * Whether the request carries a valid access token of an admin role (for operator views such as the health
 * details). Never throws: no token, a bad or expired one, or a revoked session is simply "no".
 */
export function isAdminRequest(
  verifier: TokenVerifier,
  opts: { sessionCookieName?: string; isSessionRevoked?: (sessionId: string) => boolean | Promise<boolean> } = {},
): (req: Request) => Promise<boolean> {
  return async (req) => {
    try {
      const found = extractAccessToken(req, opts.sessionCookieName ?? DEFAULT_SESSION_COOKIE);
      if (!found) return false;
      const claims = await verifier.verify(found.token);
      if (claims.session && opts.isSessionRevoked && (await opts.isSessionRevoked(claims.session))) return false;
      return claims.admin_access === true;
    } catch {
      return false;
    }
  };
}
