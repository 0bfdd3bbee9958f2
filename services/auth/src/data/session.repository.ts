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
        family_id: s.familyId ?? id,
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

  /** Delete a whole family; returns the deleted ids. */
  async deleteFamily(tx: Tx, familyId: string): Promise<string[]> {
    const rows = await tx.$queryRaw<{ id: string }[]>`DELETE FROM "sessions" WHERE "family_id" = ${familyId}::uuid RETURNING "id"`;
    return rows.map((r) => r.id);
  },

  async deleteForUser(tx: Tx, userId: string): Promise<string[]> {
    const rows = await tx.$queryRaw<{ id: string }[]>`DELETE FROM "sessions" WHERE "user_id" = ${userId}::uuid RETURNING "id"`;
    return rows.map((r) => r.id);
  },

  /** A session id is live while its row exists, is not rotated and has not expired. */
  async isLive(db: Db, id: string, now: Date): Promise<boolean> {
    if (!/^[0-9a-f-]{36}$/i.test(id)) return false;
    const s = await db.session.findUnique({ where: { id }, select: { rotated_at: true, expires_at: true } });
    return !!s && s.rotated_at === null && s.expires_at > now;
  },
};
