import { randomUUID } from 'node:crypto';
import type { RoleInput, RoleUpdateInput } from '@vellum/contracts';
import { errors } from '@vellum/errors';
import { accessRules, itemChange, type Actor } from './auth-messages';
import { enqueue } from '../data/outbox.repository';
import { publishRoleAccess } from './access-rules';
import { dropApiTokenEntries, syncApiTokens } from './api-tokens.use-case';
import type { AuthContext } from './context';
import { isUuid } from './payload';
import { presentRole } from './presenters';
import { authReads } from './read-auth-list.use-case';

export const rolesUseCase = {
  ...authReads('roles'),

  async create(ctx: AuthContext, data: RoleInput, actor: Actor) {
    const now = ctx.clock.now();
    return ctx.db.$transaction(async (tx) => {
      const r = await tx.role.create({ data: { id: randomUUID(), ...data } });
      await enqueue(tx, itemChange('vellum_roles', 'create', r.id, presentRole(r), actor, now));
      await publishRoleAccess(tx, r.id, now);
      return presentRole(r);
    });
  },

  async update(ctx: AuthContext, id: string, data: RoleUpdateInput, actor: Actor) {
    if (!isUuid(id)) throw errors.forbidden();
    const now = ctx.clock.now();
    return ctx.db.$transaction(async (tx) => {
      if (!(await tx.role.findUnique({ where: { id } }))) throw errors.forbidden();
      const r = await tx.role.update({ where: { id }, data });
      await enqueue(tx, itemChange('vellum_roles', 'update', id, presentRole(r), actor, now));
      await publishRoleAccess(tx, id, now);
      await syncApiTokens(tx, { roleId: id }, now, actor); // admin/app access travel in the tokens' entries
      return presentRole(r);
    });
  },

  async remove(ctx: AuthContext, id: string, actor: Actor) {
    if (!isUuid(id)) throw errors.forbidden();
    const now = ctx.clock.now();
    await ctx.db.$transaction(async (tx) => {
      if (!(await tx.role.findUnique({ where: { id } }))) throw errors.forbidden();
      const perms = await tx.permission.findMany({ where: { role_id: id } });
      const users = await tx.user.findMany({ where: { role_id: id }, select: { id: true } });
      await dropApiTokenEntries(tx, await tx.apiToken.findMany({ where: { role_id: id } }), actor, now); // rows cascade
      await tx.role.delete({ where: { id } }); // permissions cascade, users' role becomes null
      for (const u of users) await syncApiTokens(tx, { userId: u.id }, now, actor);
      await enqueue(tx, [
        ...perms.map((p) => itemChange('vellum_permissions', 'delete', String(p.id), null, actor, now)),
        itemChange('vellum_roles', 'delete', id, null, actor, now),
        accessRules(id, null),
      ]);
    });
  },
};
