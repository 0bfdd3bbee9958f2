import { createHash, createHmac, randomBytes } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { errors } from '@vellum/errors';
import { ISSUER, type AccessTokenClaims } from '@vellum/tokens';
import type { SigningKeys } from '../data/signing-keys';
import { es256Sign } from './es256-signer';

/** What auth puts into an access token: the contract's claims (@vellum/tokens) before iss/iat/exp are added. */
export type AccessClaimsInput = Omit<AccessTokenClaims, 'iss' | 'iat' | 'exp'>;

export const RESET_SCOPE = 'password-reset';
export const INVITE_SCOPE = 'invite';

/** sha256 of an opaque refresh token: what the sessions table stores. */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
/**
 * Refresh tokens' bytes drawn from a pool filled 2 KB (64 tokens) at a time, as node's randomUUID and the span ids
 * do: each `randomBytes` call costs OpenSSL's generator its per-call setup whatever its size. The tokens are as random as before; each byte serves one token and is zeroed once
 * handed out.
 */
const TOKEN_BYTES = 32;
let tokenPool = Buffer.alloc(0);
let tokenPoolUsed = 0;

/** A new opaque refresh token (256 bits, base64url: 43 characters). */
export function newRefreshToken(): string {
  if (tokenPoolUsed + TOKEN_BYTES > tokenPool.length) {
    tokenPool = randomBytes(64 * TOKEN_BYTES);
    tokenPoolUsed = 0;
  }
  const end = tokenPoolUsed + TOKEN_BYTES;
  const token = tokenPool.toString('base64url', tokenPoolUsed, end);
  tokenPool.fill(0, tokenPoolUsed, end);
  tokenPoolUsed = end;
  return token;
}

/** Fingerprint of the current password hash a reset token is bound to (it dies with any password change). */
export const passwordFingerprint = (passwordHash: string | null) =>
  createHash('sha256')
    .update(`vellum-reset:${passwordHash ?? ''}`)
    .digest('base64url')
    .slice(0, 22);

/** Whom a reset or invitation token is for (`password`: the current hash, null while invited). */
type ScopedUser = { id: string; email: string; password: string | null };

export class TokenIssuer {
  constructor(private readonly keys: SigningKeys) {}

  /** An ES256 access (or session) token with `kid`, iss "vellum", iat/exp from `now`. */
  signAccess(claims: AccessClaimsInput, ttlMs: number, now: Date): string {
    const iat = Math.floor(now.getTime() / 1000);
    const payload: Record<string, unknown> = {
      id: claims.id,
      role: claims.role,
      app_access: claims.app_access,
      admin_access: claims.admin_access,
      iat,
      exp: iat + Math.floor(ttlMs / 1000),
    };
    if (claims.session) payload.session = claims.session;
    if (claims.sid) payload.sid = claims.sid;
    if (claims.enforce_tfa) payload.enforce_tfa = true;
    payload.iss = ISSUER; // last, where jsonwebtoken's `issuer` option put it
    return es256Sign(this.keys, payload); // every login and refresh: without jsonwebtoken's per-call work
  }

  /**
   * The successor of a rotated refresh token: HMAC(rotation key, token). Deterministic, so a reuse of the
   * predecessor within the reuse interval can answer with the same successor without storing it in clear.
   */
  successorOf(token: string): string {
    return createHmac('sha256', this.keys.rotationKey).update(`rotate:${token}`).digest('base64url');
  }

  private decode(token: string, opts: jwt.VerifyOptions & { now: Date }): jwt.JwtPayload {
    const decoded = jwt.decode(token, { complete: true });
    if (!decoded || typeof decoded.payload === 'string') throw errors.invalidToken();
    const key = decoded.header.kid ? this.keys.verificationKeys.get(decoded.header.kid) : undefined;
    if (!key || decoded.header.alg !== 'ES256') throw errors.invalidToken();
    try {
      return jwt.verify(token, key, {
        algorithms: ['ES256'],
        issuer: ISSUER,
        clockTimestamp: Math.floor(opts.now.getTime() / 1000),
        ignoreExpiration: opts.ignoreExpiration,
      }) as jwt.JwtPayload;
    } catch (e) {
      if ((e as Error).name === 'TokenExpiredError') throw errors.tokenExpired();
      throw errors.invalidToken();
    }
  }

  /** The session id inside a session cookie (signature checked, expiry not: the session row decides). */
  sessionIdOf(sessionJwt: string, now: Date): string | undefined {
    try {
      const p = this.decode(sessionJwt, { now, ignoreExpiration: true });
      return typeof p.session === 'string' ? p.session : undefined;
    } catch {
      return undefined;
    }
  }

  signReset(user: ScopedUser, ttlMs: number, now: Date): string {
    return this.signScoped(RESET_SCOPE, user, ttlMs, now);
  }

  /** Expired → TOKEN_EXPIRED; forged/garbage → INVALID_TOKEN; wrong scope → FORBIDDEN. */
  verifyReset(token: string, now: Date): { id: string; fp: string } {
    return this.verifyScoped(RESET_SCOPE, token, now);
  }

  /** An invitation token: scope "invite", bound to the user's current password hash (none while invited). */
  signInvite(user: ScopedUser, ttlMs: number, now: Date): string {
    return this.signScoped(INVITE_SCOPE, user, ttlMs, now);
  }

  /** Expired → TOKEN_EXPIRED; forged/garbage → INVALID_TOKEN; wrong scope → FORBIDDEN. */
  verifyInvite(token: string, now: Date): { id: string; fp: string } {
    return this.verifyScoped(INVITE_SCOPE, token, now);
  }

  /** A single-purpose token for `user`, bound to a fingerprint of their password hash (used up by changing it). */
  private signScoped(scope: string, user: ScopedUser, ttlMs: number, now: Date): string {
    const iat = Math.floor(now.getTime() / 1000);
    return jwt.sign(
      { scope, id: user.id, email: user.email, fp: passwordFingerprint(user.password), iat, exp: iat + Math.floor(ttlMs / 1000) },
      this.keys.privateKey,
      { algorithm: 'ES256', keyid: this.keys.kid, issuer: ISSUER },
    );
  }

  private verifyScoped(scope: string, token: string, now: Date): { id: string; fp: string } {
    const p = this.decode(token, { now });
    if (p.scope !== scope || typeof p.id !== 'string' || typeof p.fp !== 'string') throw errors.forbidden();
    return { id: p.id, fp: p.fp };
  }
}
