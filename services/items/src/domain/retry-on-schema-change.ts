import { AppError, errors } from '@vellum/errors';
import { isDeadlock } from '../data/ddl-transaction';
import type { ItemsDeps } from './items-deps';

/**
 * SQLSTATEs of a statement built from a definition a concurrent schema change made stale (a dropped column, a
 * changed result type, a dropped table).
 */
const STALE = new Set(['42703', '0A000', '42P01']);
export const isStale = (e: unknown) => STALE.has((e as { code?: string } | null)?.code ?? '');

/**
 * Runs a read or a write (its own transaction) again, once, when it failed because a field change committed
 * between loading the collection's definition and running its statement: the second run loads the new one.
 */
export async function retryOnSchemaChange<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (!isStale(e)) throw e;
    return run();
  }
}

/**
 * A write over a definition kept in memory (`cached`: no catalogue statement, no catalogue row lock — the write's own
 * statement locks its table, which a schema change's DDL waits for), run again once with `cached` false, its
 * definition read FOR SHARE in the transaction, when a concurrent schema change made the kept one stale; and run
 * again once as it was when PostgreSQL aborted it to break a deadlock (batches lock their rows in key order, so
 * only writes of several collections at once, nested ones, can still meet in a cycle).
 */
export async function retryWrite<T>(run: (cached: boolean) => Promise<T>): Promise<T> {
  try {
    return await run(true);
  } catch (e) {
    if (isDeadlock(e)) return run(true);
    if (!isStale(e)) throw e;
    return run(false);
  }
}

/**
 * A read over definitions kept in memory (`deps.catalogue`): run again once on definitions read afresh when it
 * failed as a stale definition would make it fail — a statement the schema no longer fits, or a query it could not
 * plan or allow (a field or relation added a moment ago by another replica, whose notice has not arrived yet).
 */
export async function readWithFreshCatalogue<T>(deps: ItemsDeps, run: (deps: ItemsDeps) => Promise<T>): Promise<T> {
  try {
    return await run(deps);
  } catch (e) {
    const planned = e instanceof AppError && (e.status === 400 || e.status === 403);
    if (!isStale(e) && !(planned && deps.catalogue)) throw e;
    return run(deps.catalogue?.fresh ? { ...deps, catalogue: deps.catalogue.fresh() } : deps).catch(droppedUnder);
  }
}

/**
 * A read's second try that met a dropped table (42P01): the collection was deleted while it ran — its definition
 * read a moment before the drop committed, its statement waiting for the drop's lock — answered as a missing one.
 */
function droppedUnder(e: unknown): never {
  if ((e as { code?: string } | null)?.code === '42P01') throw errors.forbidden();
  throw e;
}
