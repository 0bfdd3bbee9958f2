import { errors } from '@vellum/errors';
import { sessionRepository } from '../data/session.repository';
import { audit, revokedSessions, type Actor } from './auth-messages';
import { enqueue } from '../data/outbox.repository';
import type { AuthContext } from './context';
import { isUuid } from './payload';

/** A session as `GET /users/me/sessions` shows it: the id is the rotation family's (stable across refreshes). */
export interface PresentedSession {
  id: string;
  created: string;
  /** The last time its refresh token (or session cookie) was used: the login or the latest refresh. */
  last_used: string;
  expires: string;
  ip: string | null;
  user_agent: string | null;
  origin: string | null;
  /** The session the request's own access token belongs to. */
  current: boolean;
}

/**
 * Listing and ending sessions. Ending one deletes its family (the refresh token dies) and revokes the family id
 * and its row ids through the revoked-sessions map, so the gateway and every service refuse its access tokens
 * within a second; each ended session is an audit event `session_ended` (collection `vellum_sessions`).
 */
export const sessionsUseCase = {
  async list(ctx: AuthContext, userId: string, current: string | null): Promise<PresentedSession[]> {
    const rows = await sessionRepository.listLive(ctx.db, userId, ctx.clock.now());
    return rows.map((s) => ({
      id: s.family_id,
      created: s.family_created_at.toISOString(),
      last_used: s.created_at.toISOString(),
      expires: s.expires_at.toISOString(),
      ip: s.ip,
      user_agent: s.user_agent,
      origin: s.origin,
      current: s.family_id === current,
    }));
  },

  /** End one of the user's sessions; an id that is not one of theirs → 403 FORBIDDEN (as for a missing item). */
  async end(ctx: AuthContext, userId: string, sessionId: string, actor: Actor): Promise<void> {
    if (!isUuid(sessionId)) throw errors.forbidden();
    const ended = await ctx.db.$transaction(async (tx) => {
      const now = ctx.clock.now();
      const row = await sessionRepository.lockFamilyOfUser(tx, userId, sessionId);
      if (!row) return false;
      const ids = await sessionRepository.deleteFamily(tx, row.family_id);
      await enqueue(tx, [...revokedSessions(ids, now), audit('session_ended', row.family_id, actor, now, 'vellum_sessions')]);
      return true;
    });
    if (!ended) throw errors.forbidden();
  },

  /** End every session of the user but `keep` (the caller's own; null = all). Returns how many ended. */
  async endAll(ctx: AuthContext, userId: string, keep: string | null, actor: Actor): Promise<number> {
    return ctx.db.$transaction(async (tx) => {
      const now = ctx.clock.now();
      const live = await sessionRepository.listLive(tx, userId, now);
      const ids = await sessionRepository.deleteForUser(tx, userId, keep);
      const families = live.map((s) => s.family_id).filter((f) => f !== keep);
      await enqueue(tx, [...revokedSessions(ids, now), ...families.map((f) => audit('session_ended', f, actor, now, 'vellum_sessions'))]);
      return families.length;
    });
  },
};
