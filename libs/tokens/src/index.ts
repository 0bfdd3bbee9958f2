export { ISSUER, ALGORITHMS, type AccessTokenClaims } from './claims';
export { jwksUrl, staticKeySource, remoteKeySource, type KeySource, type Jwk, type JwkSet, type RemoteKeySourceOptions, type VerifyKey } from './key-set';
export { createTokenVerifier, looksLikeJwt, type TokenVerifier } from './token-verifier';
export { cachedVerifier, type CachedVerifier, type CachedVerifierOptions } from './cached-verifier';
export { extractAccessToken, readCookies, DEFAULT_SESSION_COOKIE } from './extract-access-token';
export { authenticate, type AuthenticateOptions } from './authenticate';
export { isTokenRevoked, type RevocationCheck, type RevocationKind } from './revocation';
export {
  acceptApiToken,
  apiTokenClaims,
  apiTokensFrom,
  hashApiToken,
  isApiToken,
  tokenUseReporter,
  watchApiTokens,
  withApiTokens,
  type ApiTokenLookup,
  type ApiTokenSource,
  findApiToken,
  API_TOKEN_FETCH_TIMEOUT_MS,
  type ApiTokenMap,
  type ApiTokenOptions,
  type AsyncApiTokenLookup,
} from './api-tokens';
export type { KeyValueSource, WatchableMap } from './key-value-source';
export { watchRevokedSessions, type RevokedSessions } from './revoked-sessions';
export { AccessRuleMap, watchAccessRules, type WatchAccessRulesOptions } from './access-rules';
export { isAdminRequest, requestClaims, type RequestClaimsOptions } from './is-admin-request';
export type { TokenCheckDeps } from './token-check-deps';
