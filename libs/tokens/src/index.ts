export { ISSUER, ALGORITHMS, type AccessTokenClaims } from './claims';
export { staticKeySource, remoteKeySource, type KeySource, type Jwk, type JwkSet, type RemoteKeySourceOptions } from './key-set';
export { createTokenVerifier, looksLikeJwt, type TokenVerifier } from './token-verifier';
export { extractAccessToken, readCookies, DEFAULT_SESSION_COOKIE } from './extract-access-token';
export { authenticate, type AuthenticateOptions } from './authenticate';
export { isTokenRevoked, type RevocationCheck, type RevocationKind } from './revocation';
export {
  apiTokenClaims,
  apiTokensFrom,
  hashApiToken,
  isApiToken,
  tokenUseReporter,
  watchApiTokens,
  withApiTokens,
  type ApiTokenLookup,
  type ApiTokenMap,
  type ApiTokenOptions,
  type AsyncApiTokenLookup,
  type KeyValueSource,
  type WatchableMap,
} from './api-tokens';
export { isAdminRequest, requestClaims, type RequestClaimsOptions } from './is-admin-request';
