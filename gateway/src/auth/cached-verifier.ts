import type { ApiTokenEntry } from '@vellum/contracts';
import { apiTokenClaims, hashApiToken, isApiToken, type AccessTokenClaims, type ApiTokenLookup, type TokenVerifier } from '@vellum/tokens';

export interface CachedVerifier extends TokenVerifier {
  /** The claims of a token verified before and not yet expired, without any work; undefined otherwise. */
  cached(token: string): AccessTokenClaims | undefined;
  readonly size: number;
}

export interface CachedVerifierOptions {
  /** Most tokens remembered (least recently used dropped first). */
  max?: number;
  now?: () => number;
  /** The API-tokens map (watched from messaging): API tokens are checked against it, never cached here. */
  apiTokens?: ApiTokenLookup;
  onTokenUse?: (entry: ApiTokenEntry) => void;
}

/**
 * Remembers successfully verified tokens by their exact string (signature included) until their `exp`, in a
 * bounded LRU, so a client's repeated requests cost one signature check, not one each. Failures are never
 * remembered. A remembered token stops being accepted the moment it expires (jsonwebtoken's rule: valid while
 * now < exp), so expiry answers TOKEN_EXPIRED exactly as before. Revocation is not cached: the caller checks
 * the session on every request. The gateway only pre-checks: every service verifies the token again.
 * API tokens (anything not a JWT), when the API-tokens map is given, are answered from it synchronously (its key
 * is the token's hash): a revoked token is refused as soon as its entry is gone.
 */
export function cachedVerifier(inner: TokenVerifier, { max = 10_000, now = Date.now, apiTokens, onTokenUse }: CachedVerifierOptions = {}): CachedVerifier {
  const entries = new Map<string, { claims: AccessTokenClaims; expiresAt: number }>();
  const apiToken = (token: string) => {
    const entry = apiTokens!(hashApiToken(token));
    const claims = apiTokenClaims(entry, now());
    onTokenUse?.(entry!);
    return claims;
  };
  const cached = (token: string) => {
    if (apiTokens && isApiToken(token)) return apiToken(token);
    const hit = entries.get(token);
    if (!hit) return undefined;
    entries.delete(token);
    if (now() >= hit.expiresAt) return undefined;
    entries.set(token, hit); // most recently used last
    return hit.claims;
  };
  return {
    cached,
    get size() {
      return entries.size;
    },
    async verify(token) {
      if (apiTokens && isApiToken(token)) return apiToken(token);
      const hit = cached(token);
      if (hit) return hit;
      const claims = await inner.verify(token);
      if (max > 0 && typeof claims.exp === 'number') {
        entries.set(token, { claims, expiresAt: claims.exp * 1000 });
        if (entries.size > max) entries.delete(entries.keys().next().value as string);
      }
      return claims;
    },
  };
}
