import type { PermissionInput, PermissionUpdateInput } from '@vellum/contracts';
import { errors } from '@vellum/errors';
import { itemChange, type Actor } from './auth-messages';
import { enqueue } from '../data/outbox.repository';
import { publishRoleAccess } from './access-rules';
import type { AuthContext } from './context';
import { presentPermission } from './presenters';
import { authReads } from './read-auth-list.use-case';
import { rowLocks } from '../data/row-locks';
import { isMissingReference } from '../data/prisma';

/** A validated payload (`permissionSchema` / `permissionUpdateSchema`) → Prisma data; `fields` may be a comma list. */
function toData(data: PermissionInput | PermissionUpdateInput) {
  const out: Record<string, unknown> = { ...data };
  if (typeof data.fields === 'string')
    out.fields = data.fields
      .split(',')
      .map((s: string) => s.trim())
      .filter(Boolean);
  if ('role' in data) {
    delete out.role;
    out.role_id = data.role;
  }
  if ('fields' in data) out.fields = out.fields ?? ['*'];
  return out;
}

const parseId = (id: string) => {
  const n = Number(id);
  if (!Number.isInteger(n) || n < 1 || n > 2_147_483_647) throw errors.forbidden();
  return n;
};

async function guard<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (isMissingReference(e)) throw errors.invalidPayload('"role" does not exist');
    throw e;
  }
}

export const permissionsUseCase = {
  ...authReads('permissions', (id) => String(parseId(id))),

  /** `GET /permissions/me`: the rules of the caller's role (null: the public role), so an app shows only what works. */
  async mine(ctx: AuthContext, roleId: string | null) {
    const perms = await ctx.db.permission.findMany({ where: { role_id: roleId }, orderBy: { id: 'asc' } });
    return perms.map(presentPermission);
  },

  async create(ctx: AuthContext, body: PermissionInput, actor: Actor) {
    const data = toData(body);
    const now = ctx.clock.now();
    return guard(() =>
      ctx.db.$transaction(async (tx) => {
        const p = await tx.permission.create({ data: { fields: ['*'], ...data } as Parameters<typeof tx.permission.create>[0]['data'] });
        await enqueue(tx, itemChange('vellum_permissions', 'create', String(p.id), presentPermission(p), actor, now));
        await publishRoleAccess(tx, p.role_id, now);
        return presentPermission(p);
      }),
    );
  },

  async update(ctx: AuthContext, id: string, body: PermissionUpdateInput, actor: Actor) {
    const pid = parseId(id);
    const data = toData(body);
    const now = ctx.clock.now();
    return guard(() =>
      ctx.db.$transaction(async (tx) => {
        const before = (await rowLocks.permission(tx, pid)) && (await tx.permission.findUnique({ where: { id: pid } }));
        if (!before) throw errors.forbidden();
        const p = await tx.permission.update({ where: { id: pid }, data });
        await enqueue(tx, itemChange('vellum_permissions', 'update', String(p.id), presentPermission(p), actor, now));
        await publishRoleAccess(tx, p.role_id, now);
        if (before.role_id !== p.role_id) await publishRoleAccess(tx, before.role_id, now);
        return presentPermission(p);
      }),
    );
  },

  async remove(ctx: AuthContext, id: string, actor: Actor) {
    const pid = parseId(id);
    const now = ctx.clock.now();
    await ctx.db.$transaction(async (tx) => {
      const before = (await rowLocks.permission(tx, pid)) && (await tx.permission.findUnique({ where: { id: pid } }));
      if (!before) throw errors.forbidden();
      await tx.permission.delete({ where: { id: pid } });
      await enqueue(tx, itemChange('vellum_permissions', 'delete', String(pid), null, actor, now));
      await publishRoleAccess(tx, before.role_id, now);
    });
  },
};
