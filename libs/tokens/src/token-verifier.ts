import jwt from 'jsonwebtoken';
import { errors } from '@vellum/errors';
import { ALGORITHMS, ISSUER, type AccessTokenClaims } from './claims';
import type { KeySource } from './key-set';

export interface TokenVerifier {
  /** Verify an access token; throws the contract's errors (TOKEN_EXPIRED, INVALID_TOKEN, INVALID_CREDENTIALS). */
  verify(token: string): Promise<AccessTokenClaims>;
}

/** Three base64url parts: a JWT (anything else is an API or static token, see api-tokens.ts). */
export const looksLikeJwt = (t: string) => /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(t);

export function createTokenVerifier(keys: KeySource, opts: { issuer?: string } = {}): TokenVerifier {
  const issuer = opts.issuer ?? ISSUER;
  return {
    async verify(token) {
      // Not a JWT at all: Directus answers unknown static tokens with INVALID_CREDENTIALS.
      if (!looksLikeJwt(token)) throw errors.invalidCredentials();
      const decoded = jwt.decode(token, { complete: true });
      if (!decoded || typeof decoded.payload === 'string') throw errors.invalidCredentials();
      const kid = decoded.header.kid;
      if (!kid || !(ALGORITHMS as readonly string[]).includes(decoded.header.alg)) throw errors.invalidToken();
      const key = await keys.get(kid);
      if (!key) throw errors.invalidToken();
      let claims: AccessTokenClaims;
      try {
        claims = jwt.verify(token, key, { algorithms: [...ALGORITHMS], issuer }) as AccessTokenClaims;
      } catch (e) {
        if ((e as Error).name === 'TokenExpiredError') throw errors.tokenExpired();
        throw errors.invalidToken();
      }
      if (typeof claims.id !== 'string' || typeof claims.admin_access !== 'boolean' || typeof claims.app_access !== 'boolean') {
        throw errors.invalidToken();
      }
      return claims;
    },
  };
}
