import type { User } from '../data/prisma';
import { loginRepository } from '../data/login.repository';
import { audit, type Actor } from './auth-messages';
import type { AuthContext } from './context';

/** Whether the account is temporarily locked at `now`. */
export const isLocked = (user: Pick<User, 'locked_until'>, now: Date) =>
  user.locked_until !== null && user.locked_until > now;

/**
 * A failed login (audit event) that, when `count` is set, counts toward the lockout: after AUTH_LOGIN_ATTEMPTS
 * consecutive failures the account is locked temporarily, doubling per lock up to AUTH_LOCK_MAX_DURATION.
 * Wrong passwords and wrong TOTP codes both count. One statement (the path a password-guessing attacker drives).
 */
export async function recordLoginFailure(
  ctx: AuthContext,
  user: Pick<User, 'id'>,
  actor: Actor,
  now: Date,
  count: boolean,
): Promise<void> {
  const { config } = ctx;
  const r = await loginRepository.recordFailure(ctx.pg, {
    userId: user.id,
    now,
    count,
    attempts: config.AUTH_LOGIN_ATTEMPTS,
    lockMs: config.AUTH_LOCK_DURATION,
    lockMaxMs: config.AUTH_LOCK_MAX_DURATION,
    event: audit('login_failed', user.id, actor, now),
    lockoutEvent: audit('lockout', user.id, actor, now),
  });
  if (r.locked) {
    const lockMs = Math.min(config.AUTH_LOCK_DURATION * 2 ** Math.min(r.previousLocks, 30), config.AUTH_LOCK_MAX_DURATION);
    ctx.logger.warn({ user: user.id, lockMs }, 'account temporarily locked after repeated failed logins');
  }
}
