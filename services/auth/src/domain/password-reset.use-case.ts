import { errors } from '@vellum/errors';
import { sessionRepository } from '../data/session.repository';
import { audit, itemChange, revokedSessions } from './auth-messages';
import { enqueue } from '../data/outbox.repository';
import type { AuthContext, ClientInfo } from './context';
import { checkPasswordPolicy } from './password-policy';
import { presentUser } from './presenters';
import { passwordFingerprint } from './token-issuer';

/** Single use: the token is bound to the current password hash. Revokes every session of the user. */
export async function resetPassword(ctx: AuthContext, token: string, password: string, client: ClientInfo): Promise<void> {
  const now = ctx.clock.now();
  const claims = ctx.tokens.verifyReset(token, now);
  const user = await ctx.db.user.findUnique({ where: { id: claims.id } });
  if (!user || passwordFingerprint(user.password) !== claims.fp) throw errors.forbidden();
  checkPasswordPolicy(password, ctx.config.AUTH_PASSWORD_POLICY);
  const hash = await ctx.hasher.hash(password);
  const actor = { user: user.id, ip: client.ip, userAgent: client.userAgent, origin: client.origin };
  await ctx.db.$transaction(async (tx) => {
    // the user's sessions before the user's row, as a refresh takes them (the other order deadlocked with one)
    await sessionRepository.lockForUser(tx, user.id);
    // compare-and-set on the old hash: two concurrent uses of one token cannot both succeed
    const { count } = await tx.user.updateMany({
      where: { id: user.id, password: user.password },
      data: { password: hash, failed_login_attempts: 0 },
    });
    if (count !== 1) throw errors.forbidden();
    const updated = await tx.user.findUniqueOrThrow({ where: { id: user.id } });
    const ids = await sessionRepository.deleteForUser(tx, user.id);
    await enqueue(tx, [
      ...revokedSessions(ids, now),
      itemChange('vellum_users', 'update', user.id, presentUser(updated), actor, now),
      audit('password_reset', user.id, actor, now),
    ]);
  });
}
