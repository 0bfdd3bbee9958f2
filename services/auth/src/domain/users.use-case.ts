import { randomUUID } from 'node:crypto';
import { errors } from '@vellum/errors';
import { isUniqueViolation, type Tx, type User } from '../data/prisma';
import { sessionRepository } from '../data/session.repository';
import { enqueue, itemChange, revokedSessions, type Actor } from '../events/auth-events';
import type { AuthContext } from './context';
import { checkPasswordPolicy } from './password-policy';
import { EMAIL, checkPayload, isUuid, paging, type FieldSpec } from './payload';
import { presentUser } from './presenters';

const STATUSES = ['active', 'invited', 'suspended', 'archived'];

const ADMIN_FIELDS: FieldSpec = {
  first_name: 'nullable-string',
  last_name: 'nullable-string',
  email: 'nullable-string',
  password: 'nullable-string',
  status: 'string',
  role: 'uuid-or-null',
  title: 'nullable-string',
  description: 'nullable-string',
  language: 'nullable-string',
  provider: 'string',
  external_identifier: 'nullable-string',
};
const SELF_FIELDS: FieldSpec = {
  first_name: 'nullable-string',
  last_name: 'nullable-string',
  email: 'nullable-string',
  password: 'string',
  title: 'nullable-string',
  description: 'nullable-string',
  language: 'nullable-string',
};

/** Payload → Prisma data (hashing the password after the policy check). */
async function toData(ctx: AuthContext, data: Record<string, unknown>): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = { ...data };
  if (typeof data.email === 'string' && !EMAIL.test(data.email)) throw errors.invalidPayload('"email" must be a valid email');
  if (data.status !== undefined && !STATUSES.includes(data.status as string)) {
    throw errors.invalidPayload(`"status" must be one of ${STATUSES.join(', ')}`);
  }
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

async function write<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (isUniqueViolation(e)) throw errors.failedValidation('email', 'unique', 'Value for field "email" has to be unique.');
    if ((e as { code?: string }).code === 'P2003') throw errors.invalidPayload('"role" does not exist');
    throw e;
  }
}

async function revokeAll(tx: Tx, userId: string, now: Date) {
  const ids = await sessionRepository.deleteForUser(tx, userId);
  await enqueue(tx, revokedSessions(ids, now));
}

export const usersUseCase = {
  async list(ctx: AuthContext, query: Record<string, unknown>) {
    const { take, skip } = paging(query);
    const rows = await ctx.db.user.findMany({ orderBy: { created_at: 'asc' }, take, skip });
    return rows.map(presentUser);
  },

  async get(ctx: AuthContext, id: string) {
    const u = isUuid(id) ? await ctx.db.user.findUnique({ where: { id } }) : null;
    if (!u) throw errors.forbidden();
    return presentUser(u);
  },

  async create(ctx: AuthContext, body: unknown, actor: Actor) {
    const data = await toData(ctx, checkPayload(body, ADMIN_FIELDS));
    const now = ctx.clock.now();
    return write(() =>
      ctx.db.$transaction(async (tx) => {
        const u = await tx.user.create({ data: { id: randomUUID(), ...data } as Parameters<Tx['user']['create']>[0]['data'] });
        await enqueue(tx, itemChange('vellum_users', 'create', u.id, presentUser(u), actor, now));
        return presentUser(u);
      }),
    );
  },

  async update(ctx: AuthContext, id: string, body: unknown, actor: Actor, fields: FieldSpec = ADMIN_FIELDS) {
    if (!isUuid(id)) throw errors.forbidden();
    const data = await toData(ctx, checkPayload(body, fields));
    const now = ctx.clock.now();
    return write(() =>
      ctx.db.$transaction(async (tx) => {
        const before = await tx.user.findUnique({ where: { id } });
        if (!before) throw errors.forbidden();
        const u: User = await tx.user.update({ where: { id }, data });
        // a user who can no longer log in, or whose password changed, loses every session at once
        if ((u.status !== 'active' && before.status === 'active') || (data.password && fields === ADMIN_FIELDS)) await revokeAll(tx, id, now);
        await enqueue(tx, itemChange('vellum_users', 'update', id, presentUser(u), actor, now));
        return presentUser(u);
      }),
    );
  },

  async remove(ctx: AuthContext, id: string, actor: Actor) {
    if (!isUuid(id)) throw errors.forbidden();
    const now = ctx.clock.now();
    await ctx.db.$transaction(async (tx) => {
      const before = await tx.user.findUnique({ where: { id } });
      if (!before) throw errors.forbidden();
      await revokeAll(tx, id, now);
      await tx.user.delete({ where: { id } });
      await enqueue(tx, itemChange('vellum_users', 'delete', id, null, actor, now));
    });
  },

  async me(ctx: AuthContext, userId: string) {
    const u = await ctx.db.user.findUnique({ where: { id: userId } });
    if (!u) throw errors.forbidden();
    return presentUser(u);
  },

  updateMe(ctx: AuthContext, userId: string, body: unknown, actor: Actor) {
    return usersUseCase.update(ctx, userId, body, actor, SELF_FIELDS);
  },
};
