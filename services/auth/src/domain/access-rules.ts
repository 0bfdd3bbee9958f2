import type { RoleAccess } from '@vellum/contracts';
import { ACTIONS, type Action } from '@vellum/contracts';
import type { Tx } from '../data/prisma';
import { accessRules } from './auth-messages';
import { enqueue } from '../data/outbox.repository';

/** A role's entry of the access-rules map (`roleId` null = the public role), or null when the role is gone. */
export async function buildRoleAccess(tx: Tx, roleId: string | null, now: Date): Promise<RoleAccess | null> {
  let admin = false;
  let app = false;
  if (roleId) {
    const role = await tx.role.findUnique({ where: { id: roleId } });
    if (!role) return null;
    admin = role.admin_access;
    app = role.app_access;
  }
  const perms = await tx.permission.findMany({ where: { role_id: roleId }, orderBy: { id: 'asc' } });
  const permissions: RoleAccess['permissions'] = {};
  for (const p of perms) {
    if (!(ACTIONS as readonly string[]).includes(p.action)) continue;
    const entry = (permissions[p.collection] ??= {});
    const prev = entry[p.action as Action] ?? [];
    entry[p.action as Action] = [...new Set([...prev, ...(p.fields.length ? p.fields : ['*'])])];
  }
  return { role: roleId, admin, app, permissions, updated_at: now.toISOString() };
}

/** Rewrite the role's entry through the outbox (same transaction as the change). */
export async function publishRoleAccess(tx: Tx, roleId: string | null, now: Date): Promise<void> {
  await enqueue(tx, accessRules(roleId, await buildRoleAccess(tx, roleId, now)));
}

/** Every role plus the public one (at start: readers converge even after a lost KV). */
export async function publishAllRoleAccess(tx: Tx, now: Date): Promise<number> {
  const roles = await tx.role.findMany({ select: { id: true } });
  for (const id of [null, ...roles.map((r) => r.id)]) await publishRoleAccess(tx, id, now);
  return roles.length + 1;
}
