import type { ApiTokenEntry } from '@vellum/contracts';
import { Prisma, type ApiToken, type Db, type Tx } from './prisma';

/** A token with what its map entry needs: the user's status and the effective role (the token's, or the user's). */
export interface TokenState {
  id: string;
  token_hash: string;
  user_id: string;
  user_role: string | null;
  token_role: string | null;
  status: string;
  expires_at: Date | null;
  role: string | null;
  admin: boolean;
  app: boolean;
}

const STATES = Prisma.sql`
  SELECT t."id", t."token_hash", t."user_id", u."role_id" AS user_role, t."role_id" AS token_role, u."status", t."expires_at",
         COALESCE(t."role_id", u."role_id") AS role, COALESCE(r."admin_access", false) AS admin, COALESCE(r."app_access", false) AS app
    FROM "api_tokens" t JOIN "users" u ON u."id" = t."user_id"
    LEFT JOIN "roles" r ON r."id" = COALESCE(t."role_id", u."role_id")`;

/**
 * The map entry of a token that may be used now; undefined when its user is not active or (unless `keepExpired`:
 * the caller then answers TOKEN_EXPIRED itself) it has expired.
 */
export function entryOf(s: TokenState, now: Date, keepExpired = false): ApiTokenEntry | undefined {
  if (s.status !== 'active' || (!keepExpired && s.expires_at && s.expires_at <= now)) return undefined;
  return { id: s.id, user: s.user_id, role: s.role, admin: s.admin, app: s.app, expires_at: s.expires_at?.toISOString() ?? null };
}

export interface NewApiToken {
  id: string;
  userId: string;
  name: string;
  prefix: string;
  tokenHash: string;
  roleId: string | null;
  static: boolean;
  expiresAt: Date | null;
}

export const apiTokenRepository = {
  create(tx: Tx, t: NewApiToken): Promise<ApiToken> {
    return tx.apiToken.create({
      data: { id: t.id, user_id: t.userId, name: t.name, prefix: t.prefix, token_hash: t.tokenHash, role_id: t.roleId, static: t.static, expires_at: t.expiresAt },
    });
  },

  listForUser(db: Db, userId: string): Promise<ApiToken[]> {
    return db.apiToken.findMany({ where: { user_id: userId }, orderBy: { created_at: 'desc' } });
  },

  /** Delete tokens (of one user, by id; or the user's static token); returns the deleted rows. */
  async delete(tx: Tx, where: { userId: string; id?: string; static?: boolean }): Promise<ApiToken[]> {
    const cond = { user_id: where.userId, ...(where.id ? { id: where.id } : {}), ...(where.static !== undefined ? { static: where.static } : {}) };
    const rows = await tx.apiToken.findMany({ where: cond });
    if (rows.length) await tx.apiToken.deleteMany({ where: { id: { in: rows.map((r) => r.id) } } });
    return rows;
  },

  /** Tokens of a user, of an effective role, every one, or one by hash (for the auth service's own requests). */
  states(db: Db | Tx, by: { userId: string } | { roleId: string } | { hash: string } | 'all'): Promise<TokenState[]> {
    const where =
      by === 'all'
        ? Prisma.empty
        : 'userId' in by
          ? Prisma.sql`WHERE t."user_id" = ${by.userId}::uuid`
          : 'roleId' in by
            ? Prisma.sql`WHERE COALESCE(t."role_id", u."role_id") = ${by.roleId}::uuid`
            : Prisma.sql`WHERE t."token_hash" = ${by.hash}`;
    return db.$queryRaw<TokenState[]>`${STATES} ${where}`;
  },

  /** Record a use; true when it was the token's first. */
  async recordUse(tx: Tx, id: string, at: Date): Promise<{ first: boolean; userId: string } | undefined> {
    const first = await tx.$queryRaw<{ user_id: string }[]>`
      UPDATE "api_tokens" SET "last_used_at" = ${at} WHERE "id" = ${id}::uuid AND "last_used_at" IS NULL RETURNING "user_id"`;
    if (first[0]) return { first: true, userId: first[0].user_id };
    const later = await tx.$queryRaw<{ user_id: string }[]>`
      UPDATE "api_tokens" SET "last_used_at" = ${at} WHERE "id" = ${id}::uuid AND "last_used_at" < ${at} RETURNING "user_id"`;
    return later[0] ? { first: false, userId: later[0].user_id } : undefined;
  },
};
