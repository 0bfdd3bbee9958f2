import { errors } from '@vellum/errors';
import { ALGORITHMS, ISSUER, type AccessTokenClaims } from './claims';
import { jose } from './jose';
import type { KeySource } from './key-set';

export interface TokenVerifier {
  /** Verify an access token; throws the contract's errors (TOKEN_EXPIRED, INVALID_TOKEN, INVALID_CREDENTIALS). */
  verify(token: string): Promise<AccessTokenClaims>;
}

/** Three base64url parts: a JWT (anything else is an API or static token, see api-tokens.ts). */
export const looksLikeJwt = (t: string) => /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(t);

/**
 * ES256 access tokens verified with jose against `keys` (by the token's kid): signature, `iss`, `exp` (valid while
 * now < exp, no leeway) and the claims the platform relies on. A token that is not a decodable JWT →
 * INVALID_CREDENTIALS (as Directus answers an unknown static token); no kid, another algorithm, an unknown key, a
 * bad signature or claims → INVALID_TOKEN; expired → TOKEN_EXPIRED.
 */
export function createTokenVerifier(keys: KeySource, opts: { issuer?: string } = {}): TokenVerifier {
  const issuer = opts.issuer ?? ISSUER;
  const options = { algorithms: [...ALGORITHMS], issuer };
  return {
    async verify(token) {
      if (!looksLikeJwt(token)) throw errors.invalidCredentials();
      const j = await jose();
      let kid: unknown, alg: unknown;
      try {
        ({ kid, alg } = j.decodeProtectedHeader(token));
        j.decodeJwt(token); // the payload must be a JSON object too
      } catch {
        throw errors.invalidCredentials();
      }
      if (typeof kid !== 'string' || !kid || !(ALGORITHMS as readonly unknown[]).includes(alg)) throw errors.invalidToken();
      const key = await keys.get(kid);
      if (!key) throw errors.invalidToken();
      let claims: AccessTokenClaims;
      try {
        claims = (await j.jwtVerify(token, key, options)).payload as unknown as AccessTokenClaims;
      } catch (e) {
        if ((e as { code?: string }).code === 'ERR_JWT_EXPIRED') throw errors.tokenExpired();
        throw errors.invalidToken();
      }
      if (typeof claims.id !== 'string' || typeof claims.admin_access !== 'boolean' || typeof claims.app_access !== 'boolean') {
        throw errors.invalidToken();
      }
      return claims;
    },
  };
}
