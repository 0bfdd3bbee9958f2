import type { AccessTokenClaims, TokenVerifier } from '@vellum/tokens';

/**
 * Remembers verified tokens (by their exact text) until they expire, so a client reusing its access token pays
 * for the ES256 signature check once, not on every request (it was ~10% of a list request's CPU). Failures are
 * never cached; an expired entry is verified again (and so rejected with TOKEN_EXPIRED). Session revocation is
 * still checked on every request by `authenticate`.
 */
export function cachedTokenVerifier(inner: TokenVerifier, max = 10_000, now: () => number = Date.now): TokenVerifier {
  const cache = new Map<string, AccessTokenClaims>();
  return {
    async verify(token) {
      const hit = cache.get(token);
      if (hit && hit.exp * 1000 > now()) return hit;
      if (hit) cache.delete(token);
      const claims = await inner.verify(token);
      if (cache.size >= max) cache.delete(cache.keys().next().value as string);
      cache.set(token, claims);
      return claims;
    },
  };
}
