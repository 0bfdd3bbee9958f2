import { allowedFields, ACTIONS, type RoleAccess } from '@vellum/contracts';
import { errors } from '@vellum/errors';
import type { Tx } from '../data/prisma';
import { buildRoleAccess } from './access-rules';

/**
 * Whether a token's role grants nothing beyond the user's role, as the services enforce roles (the access-rules
 * map): no admin or app access the user lacks, and for every collection and action only fields the user has.
 */
export function roleWithin(token: RoleAccess | null, user: RoleAccess | null): boolean {
  if (!token) return false;
  if (user?.admin) return true;
  if (token.admin || !user) return false;
  if (token.app && !user.app) return false;
  for (const [collection, actions] of Object.entries(token.permissions)) {
    for (const action of ACTIONS) {
      const fields = actions[action];
      if (!fields) continue;
      const mine = allowedFields(user, collection, action);
      if (mine === null) return false;
      if (mine !== '*' && (fields.includes('*') || fields.some((f) => !mine.includes(f)))) return false;
    }
  }
  return true;
}

/** Whether `tokenRole` may be given to a token of a user whose role is `userRole` (the same role always may). */
export async function isRoleWithin(tx: Tx, tokenRole: string, userRole: string | null, now: Date): Promise<boolean> {
  if (tokenRole === userRole) return true;
  return roleWithin(await buildRoleAccess(tx, tokenRole, now), userRole ? await buildRoleAccess(tx, userRole, now) : null);
}

/** 400 INVALID_PAYLOAD unless the narrower role exists and can do no more than the user's role. */
export async function assertTokenRole(tx: Tx, tokenRole: string, userRole: string | null, now: Date): Promise<void> {
  if (!(await tx.role.findUnique({ where: { id: tokenRole } }))) throw errors.invalidPayload('"role" does not exist');
  if (!(await isRoleWithin(tx, tokenRole, userRole, now))) {
    throw errors.invalidPayload('"role" must not allow more than the user\'s own role');
  }
}
