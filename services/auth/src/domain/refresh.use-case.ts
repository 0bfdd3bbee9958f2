import { errors } from '@vellum/errors';
import { sessionRepository } from '../data/session.repository';
import { userRepository } from '../data/user.repository';
import { audit, revokedSessions } from './auth-messages';
import { enqueue } from '../data/outbox.repository';
import type { Session, Tx } from '../data/prisma';
import type { AuthContext, ClientInfo, Mode } from './context';
import { issueTokens, sessionExpiry, type IssuedTokens } from './issue-tokens';
import { hashToken, newRefreshToken } from './token-issuer';

/** What the caller presented: an opaque refresh token, or a session id from a (signature-checked) session cookie. */
export type PresentedCredential = { refreshToken: string } | { sessionId: string };

type Outcome = { ok: true; tokens: IssuedTokens } | { ok: false; error: 'INVALID_CREDENTIALS' | 'USER_SUSPENDED' };

/**
 * Rotate on every use. A second use of the immediately previous token within REFRESH_TOKEN_REUSE_INTERVAL answers
 * with the same successor (concurrent tabs converge: the row lock serialises them, the second sees the rotation).
 * Any other reuse of a rotated token is theft: the whole family is revoked.
 */
export async function refresh(ctx: AuthContext, cred: PresentedCredential, mode: Mode, client: ClientInfo): Promise<IssuedTokens> {
  const outcome = await ctx.db.$transaction(async (tx): Promise<Outcome> => {
    const now = ctx.clock.now();
    const row =
      'refreshToken' in cred ? await sessionRepository.lockByTokenHash(tx, hashToken(cred.refreshToken)) : await sessionRepository.lockById(tx, cred.sessionId);
    if (!row) return { ok: false, error: 'INVALID_CREDENTIALS' };
    const r: Refresh = { ctx, tx, cred, mode, client, row, now };
    return row.rotated_at ? reuseOfRotated(r, row.rotated_at) : rotate(r);
  });
  if (!outcome.ok) throw outcome.error === 'USER_SUSPENDED' ? errors.userSuspended() : errors.invalidCredentials();
  return outcome.tokens;
}

/** One refresh, inside its transaction, with the presented session's row locked. */
interface Refresh {
  ctx: AuthContext;
  tx: Tx;
  cred: PresentedCredential;
  mode: Mode;
  client: ClientInfo;
  row: Session;
  now: Date;
}

async function revokeFamily({ tx, row, now }: Refresh): Promise<void> {
  const ids = await sessionRepository.deleteFamily(tx, row.family_id);
  await enqueue(tx, revokedSessions(ids, now));
}

/** An already rotated token: its live successor again within the reuse window, else theft (the family revoked). */
async function reuseOfRotated(r: Refresh, rotatedAt: Date): Promise<Outcome> {
  const { ctx, tx, cred, mode, client, row, now } = r;
  const successor = row.successor_id ? await sessionRepository.lockById(tx, row.successor_id) : undefined;
  const withinWindow = now.getTime() - rotatedAt.getTime() <= ctx.config.REFRESH_TOKEN_REUSE_INTERVAL;
  if (withinWindow && successor && !successor.rotated_at && successor.expires_at > now) {
    let successorToken: string | undefined;
    if ('refreshToken' in cred) {
      successorToken = ctx.tokens.successorOf(cred.refreshToken);
      if (hashToken(successorToken) !== successor.token_hash) return { ok: false, error: 'INVALID_CREDENTIALS' };
    } else if (mode !== 'session') {
      return { ok: false, error: 'INVALID_CREDENTIALS' };
    }
    const user = await userRepository.findById(tx, row.user_id);
    if (!user || user.status !== 'active') return { ok: false, error: 'INVALID_CREDENTIALS' };
    return { ok: true, tokens: issueTokens(ctx, user, successor, successorToken, mode, now) };
  }
  await revokeFamily(r);
  const actor = { user: row.user_id, ip: client.ip, userAgent: client.userAgent, origin: client.origin };
  await enqueue(tx, audit('refresh_reuse', row.user_id, actor, now));
  ctx.logger.warn({ user: row.user_id, family: row.family_id }, 'rotated refresh token reused: session family revoked');
  return { ok: false, error: 'INVALID_CREDENTIALS' };
}

/** A live token: checked (expiry, user, family age), then replaced by its successor session. */
async function rotate(r: Refresh): Promise<Outcome> {
  const { ctx, tx, cred, mode, client, row, now } = r;
  if (row.expires_at <= now) return refused(r, 'INVALID_CREDENTIALS');
  const user = await userRepository.findById(tx, row.user_id);
  if (!user) return { ok: false, error: 'INVALID_CREDENTIALS' };
  if (user.status === 'suspended') return refused(r, 'USER_SUSPENDED');
  if (user.status !== 'active') return refused(r, 'INVALID_CREDENTIALS');
  const expiresAt = sessionExpiry(ctx, mode, now, row.family_created_at);
  if (expiresAt <= now) return refused(r, 'INVALID_CREDENTIALS');
  const token = 'refreshToken' in cred ? ctx.tokens.successorOf(cred.refreshToken) : newRefreshToken();
  const next = await sessionRepository.create(tx, {
    userId: user.id,
    tokenHash: hashToken(token),
    expiresAt,
    familyId: row.family_id,
    familyCreatedAt: row.family_created_at,
    predecessorId: row.id,
    ...client,
  });
  await sessionRepository.markRotated(tx, row.id, next.id, now);
  // a rotated session id is dead for every service at once (the refresh still converges within the window)
  await enqueue(tx, revokedSessions([row.id], now, row.expires_at));
  await tx.user.update({ where: { id: user.id }, data: { last_access: now } });
  return { ok: true, tokens: issueTokens(ctx, user, next, 'refreshToken' in cred ? token : undefined, mode, now) };
}

/** Refused, and the whole family revoked. */
async function refused(r: Refresh, error: 'INVALID_CREDENTIALS' | 'USER_SUSPENDED'): Promise<Outcome> {
  await revokeFamily(r);
  return { ok: false, error };
}
