export { ISSUER, ALGORITHMS, type AccessTokenClaims } from './claims';
export { staticKeySource, remoteKeySource, type KeySource, type Jwk, type JwkSet, type RemoteKeySourceOptions } from './key-set';
export { createTokenVerifier, type TokenVerifier } from './token-verifier';
export { extractAccessToken, readCookies, DEFAULT_SESSION_COOKIE } from './extract-access-token';
export { authenticate, type AuthenticateOptions } from './authenticate';
export { isAdminRequest, requestClaims, type RequestClaimsOptions } from './is-admin-request';
