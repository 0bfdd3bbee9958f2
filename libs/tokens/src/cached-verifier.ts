import type { ApiTokenEntry } from '@vellum/contracts';
import { acceptApiToken, findApiToken, hashApiToken, isApiToken, type ApiTokenSource } from './api-tokens';
import type { AccessTokenClaims } from './claims';
import type { TokenVerifier } from './token-verifier';

export interface CachedVerifier extends TokenVerifier {
  /** The claims of a token verified before and not yet expired, without any work; undefined otherwise. */
  cached(token: string): AccessTokenClaims | undefined;
  readonly size: number;
}

export interface CachedVerifierOptions {
  /** Most tokens remembered (least recently used dropped first); 0 turns the cache off. */
  max?: number;
  now?: () => number;
  /** The API-tokens map (watched from messaging): API tokens are checked against it, never cached here. */
  apiTokens?: ApiTokenSource;
  onTokenUse?: (entry: ApiTokenEntry) => void;
}

/**
 * The one verified-token cache (the gateway and every service in front of `authenticate`): remembers
 * successfully verified tokens by their exact string (signature included) until their `exp`, so a client's
 * repeated requests cost one signature check, not one each. Eviction: least recently used first, beyond `max`
 * entries (a hit moves the token to the back of the Map's order); an expired entry is dropped when it is next
 * read. Failures are never remembered. A remembered token stops being accepted the moment it expires (valid
 * while now < exp, as the verifier), so expiry answers TOKEN_EXPIRED exactly as before. Revocation is not
 * cached: the caller checks the session on every request. API tokens (anything not a JWT), when the API-tokens
 * map is given, are answered from it (its key is the token's hash): a revoked token is refused as soon as its entry
 * is gone. A token the map does not have is looked up in the bucket by `verify` (`cached` answers undefined for it),
 * so a token created a moment ago works at once.
 */
export function cachedVerifier(inner: TokenVerifier, { max = 10_000, now = Date.now, apiTokens, onTokenUse }: CachedVerifierOptions = {}): CachedVerifier {
  const entries = new Map<string, { claims: AccessTokenClaims; expiresAt: number }>();
  const cachedApiToken = (token: string) => {
    const entry = apiTokens!.get(hashApiToken(token));
    return entry === undefined && apiTokens!.fetch ? undefined : acceptApiToken(entry, now(), onTokenUse);
  };
  const cached = (token: string) => {
    if (apiTokens && isApiToken(token)) return cachedApiToken(token);
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
      if (apiTokens && isApiToken(token)) return acceptApiToken(await findApiToken(apiTokens, hashApiToken(token)), now(), onTokenUse);
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
