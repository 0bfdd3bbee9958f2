import type { ApiTokenEntry } from '@vellum/contracts';
import { cachedVerifier, createTokenVerifier, jwksUrl, remoteKeySource, type ApiTokenSource, type CachedVerifier, type TokenVerifier } from '@vellum/tokens';
import type { GatewayConfig } from '../config';

interface GatewayVerifierDeps {
  /** Access-token verifier; default: the auth service's JWKS (`${first AUTH_URL}/auth/.well-known/jwks.json`). */
  verifier?: TokenVerifier;
  apiTokens?: ApiTokenSource;
  onTokenUse?: (entry: ApiTokenEntry) => void;
}

/**
 * The gateway's token verifier: the given one or the auth service's JWKS. Verified tokens are remembered until they
 * expire: a client's next requests cost no signature check.
 */
export function gatewayVerifier(config: GatewayConfig, deps: GatewayVerifierDeps): CachedVerifier {
  const url = config.AUTH_URLS[0] ? jwksUrl(config.AUTH_URLS[0]) : undefined;
  return cachedVerifier(
    deps.verifier ??
      createTokenVerifier(
        url
          ? remoteKeySource({ url, timeoutMs: config.UPSTREAM_CONNECT_TIMEOUT + 1000, minRefreshIntervalMs: config.JWKS_MIN_REFRESH_INTERVAL })
          : { get: async () => undefined },
      ),
    { max: config.TOKEN_CACHE_SIZE, apiTokens: deps.apiTokens, onTokenUse: deps.onTokenUse },
  );
}
