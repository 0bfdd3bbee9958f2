import type { Role, Session, User } from '../data/prisma';
import type { AuthContext, Mode } from './context';

/** Whom tokens are issued to: what their claims are made of. */
export type TokenSubject = Pick<User, 'id' | 'role_id' | 'tfa_secret'> & { role: Pick<Role, 'app_access' | 'admin_access' | 'enforce_tfa'> | null };

export interface IssuedTokens {
  mode: Mode;
  /** ms: ACCESS_TOKEN_TTL, or SESSION_COOKIE_TTL in session mode. */
  expires: number;
  access_token?: string;
  refresh_token?: string;
  session_token?: string;
  /** Max-Age of the cookie that carries the refresh/session token, in seconds. */
  cookieMaxAge: number;
  sessionId: string;
}

/** The session's lifetime for a mode, capped by the family's absolute lifetime. */
export function sessionExpiry(ctx: AuthContext, mode: Mode, now: Date, familyCreatedAt: Date): Date {
  const ttl = mode === 'session' ? ctx.config.SESSION_COOKIE_TTL : ctx.config.REFRESH_TOKEN_TTL;
  const cap = familyCreatedAt.getTime() + ctx.config.SESSION_MAX_LIFETIME;
  return new Date(Math.min(now.getTime() + ttl, cap));
}

export function issueTokens(
  ctx: AuthContext,
  user: TokenSubject,
  session: Pick<Session, 'id' | 'expires_at' | 'family_id'>,
  refreshToken: string | undefined,
  mode: Mode,
  now: Date,
): IssuedTokens {
  const claims = {
    id: user.id,
    role: user.role_id,
    app_access: user.role?.app_access ?? false,
    admin_access: user.role?.admin_access ?? false,
    enforce_tfa: !!user.role?.enforce_tfa && !user.tfa_secret,
    // the session (rotation family) the token belongs to: ending the session revokes it in every service
    sid: session.family_id,
  };
  const cookieMaxAge = Math.max(0, Math.floor((session.expires_at.getTime() - now.getTime()) / 1000));
  if (mode === 'session') {
    const ttl = ctx.config.SESSION_COOKIE_TTL;
    return {
      mode,
      expires: ttl,
      session_token: ctx.tokens.signAccess({ ...claims, session: session.id }, ttl, now),
      cookieMaxAge,
      sessionId: session.id,
    };
  }
  const ttl = ctx.config.ACCESS_TOKEN_TTL;
  return {
    mode,
    expires: ttl,
    access_token: ctx.tokens.signAccess(claims, ttl, now),
    refresh_token: refreshToken,
    cookieMaxAge,
    sessionId: session.id,
  };
}
