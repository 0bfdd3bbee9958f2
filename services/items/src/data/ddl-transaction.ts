import type { Db } from './prisma';

/** A schema change's transaction: its DDL may wait for in-flight writes (up to maxWait for a connection, timeout in all). */
const DDL_TRANSACTION = { maxWait: 10_000, timeout: 30_000 };

type Tx = Parameters<Parameters<Db['$transaction']>[0]>[0];

/** PostgreSQL aborted the transaction to break a deadlock (40P01; through Prisma a raw statement's P2010, or P2034). */
export function isDeadlock(e: unknown): boolean {
  const err = e as { code?: string; meta?: { code?: string }; message?: string } | null;
  return err?.code === '40P01' || err?.code === 'P2034' || err?.meta?.code === '40P01' || /`40P01`/.test(err?.message ?? '');
}

/**
 * A schema change in one transaction, run once more when PostgreSQL aborted it to break a deadlock: two schema
 * changes, or one and a nested write, can lock the same tables and catalogue rows in other orders (a collection's
 * drop takes the tables whose foreign keys point at it). Nothing of the aborted run was written.
 */
export async function ddlTransaction<T>(prisma: Db, fn: (tx: Tx) => Promise<T>): Promise<T> {
  try {
    return await prisma.$transaction(fn, DDL_TRANSACTION);
  } catch (e) {
    if (!isDeadlock(e)) throw e;
    return prisma.$transaction(fn, DDL_TRANSACTION);
  }
}
