import type { User } from '../data/prisma';
import { audit, enqueue, type Actor } from '../events/auth-events';
import type { AuthContext } from './context';

/** Whether the account is temporarily locked at `now`. */
export const isLocked = (user: Pick<User, 'locked_until'>, now: Date) =>
  user.locked_until !== null && user.locked_until > now;

/**
 * A failed login (audit event) that, when `count` is set, counts toward the lockout: after AUTH_LOGIN_ATTEMPTS
 * consecutive failures the account is locked temporarily, doubling per lock up to AUTH_LOCK_MAX_DURATION.
 * Wrong passwords and wrong TOTP codes both count.
 */
export async function recordLoginFailure(
  ctx: AuthContext,
  user: Pick<User, 'id' | 'failed_login_attempts' | 'lock_count'>,
  actor: Actor,
  now: Date,
  count: boolean,
): Promise<void> {
  const { config } = ctx;
  await ctx.db.$transaction(async (tx) => {
    const messages = [audit('login_failed', user.id, actor, now)];
    if (count) {
      // increment in SQL: parallel failures each count
      const rows = await tx.$queryRaw<{ failed_login_attempts: number; lock_count: number }[]>`
        UPDATE "users" SET "failed_login_attempts" = "failed_login_attempts" + 1
         WHERE "id" = ${user.id}::uuid RETURNING "failed_login_attempts", "lock_count"`;
      const row = rows[0];
      if (row && row.failed_login_attempts >= config.AUTH_LOGIN_ATTEMPTS) {
        const duration = Math.min(
          config.AUTH_LOCK_DURATION * 2 ** Math.min(row.lock_count, 30),
          config.AUTH_LOCK_MAX_DURATION,
        );
        await tx.user.update({
          where: { id: user.id },
          data: {
            failed_login_attempts: 0,
            lock_count: { increment: 1 },
            locked_until: new Date(now.getTime() + duration),
          },
        });
        messages.push(audit('lockout', user.id, actor, now));
        ctx.logger.warn(
          { user: user.id, lockMs: duration },
          'account temporarily locked after repeated failed logins',
        );
      }
    }
    await enqueue(tx, messages);
  });
}
