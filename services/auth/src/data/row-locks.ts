import type { Tx } from './prisma';

/**
 * An administrator's change or delete of a role or permission locks its row before anything else, and answers as
 * for a missing row (false → 403) when it is gone: a concurrent delete left a write that only checked it existed
 * to fail on the missing row (a 500).
 */
export const rowLocks = {
  async role(tx: Tx, id: string): Promise<boolean> {
    return (await tx.$queryRaw<unknown[]>`SELECT 1 FROM "roles" WHERE "id" = ${id}::uuid FOR UPDATE`).length > 0;
  },
  async permission(tx: Tx, id: number): Promise<boolean> {
    return (await tx.$queryRaw<unknown[]>`SELECT 1 FROM "permissions" WHERE "id" = ${id} FOR UPDATE`).length > 0;
  },
};
