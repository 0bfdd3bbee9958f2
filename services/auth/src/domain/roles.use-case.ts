import { randomUUID } from 'node:crypto';
import type { RoleInput, RoleUpdateInput } from '@vellum/contracts';
import { errors } from '@vellum/errors';
import { accessRules, itemChange, type Actor } from './auth-messages';
import { enqueue } from '../data/outbox.repository';
import { publishRoleAccess } from './access-rules';
import { dropApiTokenEntries, syncApiTokens } from './api-tokens.use-case';
import { isUniqueViolation, type Tx } from '../data/prisma';
import { rowLocks } from '../data/row-locks';
import type { AuthContext } from './context';
import { isUuid } from './payload';
import { presentRole, presentUser } from './presenters';
import { authReads } from './read-auth-list.use-case';
import { guardLastAdmin } from './last-admin';

const nameTaken = (name: string) => errors.failedValidation('name', 'unique', `A role named "${name}" exists already.`);

/**
 * Role names are unique, letter case aside: two "Editors" could not be told apart in a list or a select. Checked
 * here for the message; the index on lower(name) settles a race between two writes (uniqueName).
 */
async function refuseTakenName(tx: Tx, name: string | undefined, except?: string): Promise<void> {
  if (name === undefined) return;
  const taken = await tx.role.findFirst({ where: { name: { equals: name, mode: 'insensitive' }, ...(except ? { NOT: { id: except } } : {}) } });
  if (taken) throw nameTaken(taken.name);
}

/** `write`, with a name the unique index refused (a concurrent write took it) answered as a taken name. */
async function uniqueName<T>(name: string | undefined, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (e) {
    if (name !== undefined && isUniqueViolation(e)) throw nameTaken(name);
    throw e;
  }
}

export const rolesUseCase = {
  ...authReads('roles'),

  async create(ctx: AuthContext, data: RoleInput, actor: Actor) {
    const now = ctx.clock.now();
    return uniqueName(data.name, () =>
      ctx.db.$transaction(async (tx) => {
        await refuseTakenName(tx, data.name);
        const r = await tx.role.create({ data: { id: randomUUID(), ...data } });
        await enqueue(tx, itemChange('vellum_roles', 'create', r.id, presentRole(r), actor, now));
        await publishRoleAccess(tx, r.id, now);
        return presentRole(r);
      }),
    );
  },

  async update(ctx: AuthContext, id: string, data: RoleUpdateInput, actor: Actor) {
    if (!isUuid(id)) throw errors.forbidden();
    const now = ctx.clock.now();
    return uniqueName(data.name, () =>
      ctx.db.$transaction(async (tx) => {
        const guard = data.admin_access === false ? await guardLastAdmin(tx) : undefined;
        if (!(await rowLocks.role(tx, id))) throw errors.forbidden();
        await refuseTakenName(tx, data.name, id);
        const r = await tx.role.update({ where: { id }, data });
        await guard?.();
        await enqueue(tx, itemChange('vellum_roles', 'update', id, presentRole(r), actor, now));
        await publishRoleAccess(tx, id, now);
        await syncApiTokens(tx, { roleId: id }, now, actor); // admin/app access travel in the tokens' entries
        return presentRole(r);
      }),
    );
  },

  /** `query.move_users_to`: a role the users of this one get first (else they drop to the public role). */
  async remove(ctx: AuthContext, id: string, actor: Actor, query: { move_users_to?: unknown } = {}) {
    if (!isUuid(id)) throw errors.forbidden();
    const moveTo = query.move_users_to;
    if (moveTo !== undefined && (typeof moveTo !== 'string' || !isUuid(moveTo) || moveTo === id))
      throw errors.invalidPayload('"move_users_to" must be the id of another role');
    const now = ctx.clock.now();
    await ctx.db.$transaction(async (tx) => {
      const guard = await guardLastAdmin(tx);
      if (!(await rowLocks.role(tx, id))) throw errors.forbidden();
      const users = (await tx.user.findMany({ where: { role_id: id }, select: { id: true } })).map((u) => u.id);
      if (moveTo) {
        if (!(await tx.role.findUnique({ where: { id: moveTo } }))) throw errors.invalidPayload('"move_users_to" must be the id of another role');
        await tx.user.updateMany({ where: { role_id: id }, data: { role_id: moveTo } });
      }
      const perms = await tx.permission.findMany({ where: { role_id: id } });
      await dropApiTokenEntries(tx, await tx.apiToken.findMany({ where: { role_id: id } }), actor, now); // rows cascade
      await tx.role.delete({ where: { id } }); // permissions cascade, users' role becomes null
      await guard();
      for (const u of users) await syncApiTokens(tx, { userId: u }, now, actor);
      // each user's new role (another, or none) is a change of that user: its revision says so
      const changed = await tx.user.findMany({ where: { id: { in: users } } });
      await enqueue(tx, [
        ...changed.map((u) => itemChange('vellum_users', 'update', u.id, presentUser(u), actor, now)),
        ...perms.map((p) => itemChange('vellum_permissions', 'delete', String(p.id), null, actor, now)),
        itemChange('vellum_roles', 'delete', id, null, actor, now),
        accessRules(id, null),
      ]);
    });
  },
};
