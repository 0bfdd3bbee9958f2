import { randomUUID } from 'node:crypto';
import type { UserInput, UserSelfInput } from '@vellum/contracts';
import { errors } from '@vellum/errors';
import { isMissingReference, isUniqueViolation, type Tx, type User } from '../data/prisma';
import { sessionRepository } from '../data/session.repository';
import { itemChange, revokedSessions, type Actor } from './auth-messages';
import { enqueue } from '../data/outbox.repository';
import { apiTokensUseCase, dropApiTokenEntries, syncApiTokens } from './api-tokens.use-case';
import type { AuthContext } from './context';
import { checkPasswordPolicy } from './password-policy';
import { isUuid } from './payload';
import { presentUser } from './presenters';
import { authReads } from './read-auth-list.use-case';
import { guardLastAdmin } from './last-admin';

/**
 * A validated payload (`userSchema` / `userSelfSchema` of @vellum/contracts) → Prisma data, hashing the password
 * after the policy check (400 FAILED_VALIDATION).
 */
async function toData(ctx: AuthContext, data: UserInput | UserSelfInput): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = { ...data };
  delete out.token; // the static token lives in api_tokens, hashed (apiTokensUseCase.setStatic)
  if (typeof data.password === 'string') {
    checkPasswordPolicy(data.password, ctx.config.AUTH_PASSWORD_POLICY);
    out.password = await ctx.hasher.hash(data.password);
  }
  if ('role' in data) {
    delete out.role;
    out.role_id = data.role;
  }
  return out;
}

/** After a write that set a static token: the answer waits for the token's entry to be published (AuthContext.published). */
const tokenPublished =
  (ctx: AuthContext, body: object) =>
  async <T>(answer: T): Promise<T> => {
    if (typeof (body as { token?: unknown }).token === 'string') await ctx.published?.();
    return answer;
  };

async function write<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (isUniqueViolation(e)) throw errors.failedValidation('email', 'unique', 'Value for field "email" has to be unique.');
    if (isMissingReference(e)) throw errors.invalidPayload('"role" does not exist');
    throw e;
  }
}

/**
 * An administrator's write of a user: the user's sessions locked, then the user's row (sessionRepository.lockForUser
 * says why), read under its lock; null when there is no such user (a concurrent delete included).
 */
async function lockUser(tx: Tx, id: string, strength: 'UPDATE' | 'NO KEY UPDATE'): Promise<User | null> {
  await sessionRepository.lockForUser(tx, id);
  const locked =
    strength === 'UPDATE'
      ? await tx.$queryRaw<{ id: string }[]>`SELECT "id" FROM "users" WHERE "id" = ${id}::uuid FOR UPDATE`
      : await tx.$queryRaw<{ id: string }[]>`SELECT "id" FROM "users" WHERE "id" = ${id}::uuid FOR NO KEY UPDATE`;
  return locked.length ? tx.user.findUnique({ where: { id } }) : null;
}

async function revokeAll(tx: Tx, userId: string, now: Date) {
  const ids = await sessionRepository.deleteForUser(tx, userId);
  await enqueue(tx, revokedSessions(ids, now));
}

export const usersUseCase = {
  ...authReads('users'),

  async create(ctx: AuthContext, body: UserInput, actor: Actor) {
    const data = await toData(ctx, body);
    const now = ctx.clock.now();
    return write(() =>
      ctx.db.$transaction(async (tx) => {
        const u = await tx.user.create({ data: { id: randomUUID(), ...data } as Parameters<Tx['user']['create']>[0]['data'] });
        if (typeof body.token === 'string') await apiTokensUseCase.setStatic(tx, u.id, body.token, actor, now);
        await enqueue(tx, itemChange('vellum_users', 'create', u.id, presentUser(u), actor, now));
        return presentUser(u);
      }),
    ).then(tokenPublished(ctx, body));
  },

  /** `self`: the user changes their own account (`PATCH /users/me`, the narrower `userSelfSchema`). */
  async update(ctx: AuthContext, id: string, body: UserInput | UserSelfInput, actor: Actor, self = false) {
    if (!isUuid(id)) throw errors.forbidden();
    const data = await toData(ctx, body);
    const now = ctx.clock.now();
    return write(() =>
      ctx.db.$transaction(async (tx) => {
        const guard = 'role_id' in data || 'status' in data ? await guardLastAdmin(tx) : undefined;
        // one's own write never revokes sessions: the user's row alone; an administrator's may: sessions first
        const before = self ? await tx.user.findUnique({ where: { id } }) : await lockUser(tx, id, 'NO KEY UPDATE');
        if (!before) throw errors.forbidden();
        const u: User = await tx.user.update({ where: { id }, data });
        await guard?.();
        // a user who can no longer log in, or whose password changed, loses every session at once
        if ((u.status !== 'active' && before.status === 'active') || (data.password && !self)) await revokeAll(tx, id, now);
        if ('token' in body && body.token !== undefined) await apiTokensUseCase.setStatic(tx, id, body.token, actor, now);
        // API tokens follow their user: gone while not active, the new role's rights after a role change
        if (u.status !== before.status || u.role_id !== before.role_id) await syncApiTokens(tx, { userId: id }, now, actor);
        await enqueue(tx, itemChange('vellum_users', 'update', id, presentUser(u), actor, now));
        return presentUser(u);
      }),
    ).then(tokenPublished(ctx, body));
  },

  async remove(ctx: AuthContext, id: string, actor: Actor) {
    if (!isUuid(id)) throw errors.forbidden();
    const now = ctx.clock.now();
    await ctx.db.$transaction(async (tx) => {
      const guard = await guardLastAdmin(tx);
      // a second concurrent delete finds no user under the lock: 403, as for any missing user
      if (!(await lockUser(tx, id, 'UPDATE'))) throw errors.forbidden();
      await revokeAll(tx, id, now);
      await dropApiTokenEntries(tx, await tx.apiToken.findMany({ where: { user_id: id } }), actor, now); // rows cascade
      await tx.user.delete({ where: { id } });
      await guard();
      await enqueue(tx, itemChange('vellum_users', 'delete', id, null, actor, now));
    });
  },

  /** `query`: only its `fields` is used (as on `GET /users/:id`). */
  me(ctx: AuthContext, userId: string, query: unknown = {}) {
    return usersUseCase.get(ctx, userId, query);
  },

  updateMe(ctx: AuthContext, userId: string, body: UserSelfInput, actor: Actor) {
    return usersUseCase.update(ctx, userId, body, actor, true);
  },
};
