import { randomBytes, randomUUID } from 'node:crypto';
import type { ApiTokenCreateRequest } from '@vellum/contracts';
import { errors } from '@vellum/errors';
import { hashApiToken } from '@vellum/tokens';
import { apiTokenRepository, entryOf, type TokenState } from '../data/api-token.repository';
import { isUniqueViolation, type ApiToken, type Tx } from '../data/prisma';
import { apiTokenEntry, audit, type Actor } from './auth-messages';
import { enqueue } from '../data/outbox.repository';
import type { AuthContext } from './context';
import { isUuid } from './payload';
import { assertTokenRole, isRoleWithin } from './token-role';

/** A new API token: `vlm_<prefix>_<secret>` — the prefix (8 hex) is shown in lists, the secret has 256 bits. */
export function newApiToken(): { token: string; prefix: string } {
  const prefix = `vlm_${randomBytes(4).toString('hex')}`;
  return { token: `${prefix}_${randomBytes(32).toString('base64url')}`, prefix };
}

/** A token as the API shows it: never the secret, never its hash. */
export function presentApiToken(t: ApiToken) {
  return {
    id: t.id,
    name: t.name,
    prefix: t.prefix,
    role: t.role_id,
    static: t.static,
    created: t.created_at.toISOString(),
    expires: t.expires_at?.toISOString() ?? null,
    last_used: t.last_used_at?.toISOString() ?? null,
  };
}

const tokenAudit = (action: 'token_created' | 'token_revoked', tokenId: string, actor: Actor, now: Date) =>
  audit(action, tokenId, actor, now, 'vellum_api_tokens');

/**
 * Rewrite the map entries of tokens (a user's, an effective role's, or all) after a change of users or roles: a
 * user no longer active loses them at once (entries removed), a role change changes what they may do, and a
 * token whose narrower role now exceeds its user's role is revoked.
 */
export async function syncApiTokens(tx: Tx, by: { userId: string } | { roleId: string } | 'all', now: Date, actor: Actor): Promise<number> {
  const states = await apiTokenRepository.states(tx, by);
  for (const s of states) {
    if (s.token_role && !(await isRoleWithin(tx, s.token_role, s.user_role, now))) {
      await apiTokenRepository.delete(tx, { userId: s.user_id, id: s.id });
      await enqueue(tx, [apiTokenEntry(s.token_hash, undefined), tokenAudit('token_revoked', s.id, actor, now)]);
      continue;
    }
    await enqueue(tx, apiTokenEntry(s.token_hash, entryOf(s, now)));
  }
  return states.length;
}

/** Remove the map entries of deleted tokens (rows already gone, or about to be with their user or role). */
export async function dropApiTokenEntries(tx: Tx, rows: Pick<ApiToken, 'id' | 'token_hash'>[], actor: Actor, now: Date): Promise<void> {
  await enqueue(
    tx,
    rows.flatMap((r) => [apiTokenEntry(r.token_hash, undefined), tokenAudit('token_revoked', r.id, actor, now)]),
  );
}

async function publishOne(tx: Tx, hash: string, now: Date): Promise<void> {
  const [state] = await apiTokenRepository.states(tx, { hash });
  await enqueue(tx, apiTokenEntry(hash, state ? entryOf(state, now) : undefined));
}

export const apiTokensUseCase = {
  /** Create a token for `userId`: the secret is in this answer only. */
  async create(ctx: AuthContext, userId: string, body: ApiTokenCreateRequest, actor: Actor) {
    const now = ctx.clock.now();
    const expiresAt = new Date(body.expires);
    if (expiresAt <= now) throw errors.invalidPayload('"expires" must be in the future');
    if (expiresAt.getTime() - now.getTime() > ctx.config.API_TOKEN_MAX_TTL) {
      throw errors.invalidPayload(`"expires" must be at most ${Math.floor(ctx.config.API_TOKEN_MAX_TTL / 86_400_000)} days ahead`);
    }
    const { token, prefix } = newApiToken();
    const row = await ctx.db.$transaction(async (tx) => {
      const user = await tx.user.findUnique({ where: { id: userId } });
      if (!user) throw errors.forbidden();
      if (body.role) await assertTokenRole(tx, body.role, user.role_id, now);
      const hash = hashApiToken(token);
      const created = await apiTokenRepository.create(tx, {
        id: randomUUID(),
        userId,
        name: body.name,
        prefix,
        tokenHash: hash,
        roleId: body.role ?? null,
        static: false,
        expiresAt,
      });
      await publishOne(tx, hash, now);
      await enqueue(tx, tokenAudit('token_created', created.id, actor, now));
      return created;
    });
    await ctx.published?.();
    return { ...presentApiToken(row), token };
  },

  async list(ctx: AuthContext, userId: string) {
    return (await apiTokenRepository.listForUser(ctx.db, userId)).map(presentApiToken);
  },

  /** Revoke one of the user's tokens; not theirs (or gone) → 403 FORBIDDEN. */
  async revoke(ctx: AuthContext, userId: string, tokenId: string, actor: Actor): Promise<void> {
    if (!isUuid(tokenId)) throw errors.forbidden();
    const now = ctx.clock.now();
    await ctx.db.$transaction(async (tx) => {
      const rows = await apiTokenRepository.delete(tx, { userId, id: tokenId });
      if (!rows.length) throw errors.forbidden();
      await dropApiTokenEntries(tx, rows, actor, now);
    });
  },

  /**
   * The Directus static token (`PATCH /users/:id {"token"}`): replaces the user's static token (null removes it),
   * stored hashed like any API token, without expiry, with the user's role.
   */
  async setStatic(tx: Tx, userId: string, token: string | null, actor: Actor, now: Date): Promise<void> {
    await dropApiTokenEntries(tx, await apiTokenRepository.delete(tx, { userId, static: true }), actor, now);
    if (token === null) return;
    const hash = hashApiToken(token);
    const row = await apiTokenRepository
      .create(tx, { id: randomUUID(), userId, name: 'static token', prefix: 'static', tokenHash: hash, roleId: null, static: true, expiresAt: null })
      .catch((e: unknown) => {
        // another user's token already (it was reported as a taken e-mail address)
        throw isUniqueViolation(e) ? errors.failedValidation('token', 'unique', 'Value for field "token" has to be unique.') : e;
      });
    await publishOne(tx, hash, now);
    await enqueue(tx, tokenAudit('token_created', row.id, actor, now));
  },

  /**
   * A use of a token seen at `at` (by auth itself, or reported by the gateway and the services through the
   * token-uses map): `last_used` moves forward; the first use is an activity `token_first_use`.
   */
  async recordUse(ctx: AuthContext, tokenId: string, at: Date): Promise<void> {
    if (!isUuid(tokenId)) return;
    await ctx.db.$transaction(async (tx) => {
      const used = await apiTokenRepository.recordUse(tx, tokenId, at);
      if (used?.first) await enqueue(tx, audit('token_first_use', tokenId, { user: used.userId }, at, 'vellum_api_tokens'));
    });
  },

  /** The auth service's own lookup (its database, no map): the entry of a usable token. */
  async entryByHash(ctx: AuthContext, hash: string) {
    const [state] = await apiTokenRepository.states(ctx.db, { hash });
    return state ? entryOf(state as TokenState, ctx.clock.now(), true) : undefined;
  },
};
