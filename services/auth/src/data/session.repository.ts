import { randomUUID } from 'node:crypto';
import type { Db, Session, Tx } from './prisma';

export interface NewSession {
  userId: string;
  tokenHash: string;
  expiresAt: Date;
  familyId?: string;
  familyCreatedAt: Date;
  predecessorId?: string | null;
  ip: string | null;
  userAgent: string | null;
  origin: string | null;
}

export const sessionRepository = {
  create(tx: Tx, s: NewSession): Promise<Session> {
    const id = randomUUID();
    return tx.session.create({
      data: {
        id,
        token_hash: s.tokenHash,
        user_id: s.userId,
        expires_at: s.expiresAt,
        family_id: s.familyId ?? randomUUID(), // never the row id: a rotated row id is revoked, its family lives on
        family_created_at: s.familyCreatedAt,
        predecessor_id: s.predecessorId ?? null,
        ip: s.ip,
        user_agent: s.userAgent,
        origin: s.origin,
      },
    });
  },

  /** The row, locked for the rest of the transaction (concurrent refreshes of one token serialise here). */
  async lockByTokenHash(tx: Tx, tokenHash: string): Promise<Session | undefined> {
    const rows = await tx.$queryRaw<Session[]>`SELECT * FROM "sessions" WHERE "token_hash" = ${tokenHash} FOR UPDATE`;
    return rows[0];
  },

  async lockById(tx: Tx, id: string): Promise<Session | undefined> {
    const rows = await tx.$queryRaw<Session[]>`SELECT * FROM "sessions" WHERE "id" = ${id}::uuid FOR UPDATE`;
    return rows[0];
  },

  markRotated(tx: Tx, id: string, successorId: string, at: Date) {
    return tx.session.update({ where: { id }, data: { rotated_at: at, successor_id: successorId } });
  },

  /**
   * Delete a whole family; returns the ids to revoke: every deleted row's id and the family id (access tokens
   * carry it as `sid`, so they die with the session too).
   */
  async deleteFamily(tx: Tx, familyId: string): Promise<string[]> {
    const rows = await tx.$queryRaw<{ id: string }[]>`DELETE FROM "sessions" WHERE "family_id" = ${familyId}::uuid RETURNING "id"`;
    return [...rows.map((r) => r.id), familyId];
  },

  /**
   * Locks every session row of the user, in key order. A transaction that writes a user and their sessions takes
   * them before the user's row, as a refresh does (its session, then the user): the other order deadlocked.
   */
  async lockForUser(tx: Tx, userId: string): Promise<void> {
    await tx.$queryRaw`SELECT 1 FROM "sessions" WHERE "user_id" = ${userId}::uuid ORDER BY "id" FOR UPDATE`;
  },

  /** Delete the user's sessions (all, or all but the family `keep`); returns the ids to revoke as deleteFamily does. */
  async deleteForUser(tx: Tx, userId: string, keep: string | null = null): Promise<string[]> {
    const rows = await tx.$queryRaw<{ id: string; family_id: string }[]>`
      DELETE FROM "sessions" WHERE "user_id" = ${userId}::uuid AND (${keep}::uuid IS NULL OR "family_id" <> ${keep}::uuid)
      RETURNING "id", "family_id"`;
    return [...new Set(rows.flatMap((r) => [r.id, r.family_id]))];
  },

  /** The user's live sessions: one row per family (its newest, not rotated, not expired), newest first. */
  listLive(db: Db | Tx, userId: string, now: Date): Promise<Session[]> {
    return db.session.findMany({
      where: { user_id: userId, rotated_at: null, expires_at: { gt: now } },
      orderBy: { created_at: 'desc' },
    });
  },

  /** The family of one of the user's sessions, locked (undefined when it is not theirs or gone). */
  async lockFamilyOfUser(tx: Tx, userId: string, familyId: string): Promise<Session | undefined> {
    const rows = await tx.$queryRaw<Session[]>`
      SELECT * FROM "sessions" WHERE "family_id" = ${familyId}::uuid AND "user_id" = ${userId}::uuid FOR UPDATE`;
    return rows[0];
  },

  /** A family is live while it has a row that is not rotated and has not expired. */
  async isFamilyLive(db: Db, familyId: string, now: Date): Promise<boolean> {
    if (!/^[0-9a-f-]{36}$/i.test(familyId)) return false;
    const n = await db.session.count({ where: { family_id: familyId, rotated_at: null, expires_at: { gt: now } } });
    return n > 0;
  },

  /** A session id is live while its row exists, is not rotated and has not expired. */
  async isLive(db: Db, id: string, now: Date): Promise<boolean> {
    if (!/^[0-9a-f-]{36}$/i.test(id)) return false;
    const s = await db.session.findUnique({ where: { id }, select: { rotated_at: true, expires_at: true } });
    return !!s && s.rotated_at === null && s.expires_at > now;
  },
};
