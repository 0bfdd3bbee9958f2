import { errors } from '@vellum/errors';
import type { Tx } from '../data/prisma';

/** The advisory lock every write that may take an administrator away holds (a constant of this database's own). */
const ADMINS_LOCK = 7_201_104;

const activeAdmins = async (tx: Tx) =>
  Number(
    (
      await tx.$queryRaw<{ n: bigint }[]>`
        SELECT count(*) AS n FROM "users" u JOIN "roles" r ON r."id" = u."role_id" WHERE u."status" = 'active' AND r."admin_access"`
    )[0]!.n,
  );

/**
 * For a write that may leave no active administrator (a user's role or status, a user or a role deleted, a role's
 * admin_access): taken first in its transaction (before any row lock, so these writes queue in one order), it
 * counts them; the check it returns, run after the write, answers 422 `UNPROCESSABLE_CONTENT` (Directus's answer)
 * when there was one and none is left, the transaction rolled back. Two such writes cannot each leave the other's
 * user as the last one. A platform with none to start with is not made to keep one.
 */
export async function guardLastAdmin(tx: Tx): Promise<() => Promise<void>> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(${ADMINS_LOCK})`;
  const before = await activeAdmins(tx);
  return async () => {
    if (before > 0 && (await activeAdmins(tx)) === 0) throw errors.unprocessableContent('Cannot remove the last admin user from the system.');
  };
}
