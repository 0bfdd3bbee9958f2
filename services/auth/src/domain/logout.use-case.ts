import { sessionRepository } from '../data/session.repository';
import { audit, revokedSessions } from './auth-messages';
import { enqueue } from '../data/outbox.repository';
import type { AuthContext, ClientInfo } from './context';
import type { PresentedCredential } from './refresh.use-case';
import { hashToken } from './token-issuer';

/** Delete the session (its whole rotation family); an unknown token is not an error. */
export async function logout(ctx: AuthContext, cred: PresentedCredential, client: ClientInfo): Promise<void> {
  await ctx.db.$transaction(async (tx) => {
    const now = ctx.clock.now();
    const row =
      'refreshToken' in cred ? await sessionRepository.lockByTokenHash(tx, hashToken(cred.refreshToken)) : await sessionRepository.lockById(tx, cred.sessionId);
    if (!row) return;
    const ids = await sessionRepository.deleteFamily(tx, row.family_id);
    await enqueue(tx, [
      ...revokedSessions(ids, now, row.expires_at),
      audit('logout', row.user_id, { user: row.user_id, ip: client.ip, userAgent: client.userAgent, origin: client.origin }, now),
    ]);
  });
}
