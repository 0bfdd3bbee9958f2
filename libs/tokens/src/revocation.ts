import type { AccessTokenClaims } from './claims';

/** Which id of a token is asked about: its session row (session mode) or its session family (`sid`). */
export type RevocationKind = 'session' | 'family';
export type RevocationCheck = (id: string, kind: RevocationKind) => boolean | Promise<boolean>;

/**
 * Whether a token's session is over: its session row id (`session`, session mode) or its session family id
 * (`sid`, every access token issued since sessions are listed) is revoked. Synchronous when the check is.
 */
export function isTokenRevoked(claims: AccessTokenClaims, check: (id: string, kind: RevocationKind) => boolean): boolean;
export function isTokenRevoked(claims: AccessTokenClaims, check: RevocationCheck): boolean | Promise<boolean>;
export function isTokenRevoked(claims: AccessTokenClaims, check: RevocationCheck): boolean | Promise<boolean> {
  const bySession = claims.session ? check(claims.session, 'session') : false;
  const byFamily = claims.sid ? check(claims.sid, 'family') : false;
  if (bySession instanceof Promise || byFamily instanceof Promise) {
    return Promise.all([bySession, byFamily]).then(([a, b]) => a || b);
  }
  return bySession || byFamily;
}
