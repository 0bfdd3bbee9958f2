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

/** Runs of a write PostgreSQL aborted to break a deadlock, after the first; then 503 (the client may try again). */
export const DEADLOCK_RETRIES = 5;

/** A random pause before run `n` again (1-based), growing: 0–10 ms, 0–20 ms, … so the writers that met part ways. */
const jitter = (n: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.random() * 10 * 2 ** (n - 1)));

/**
 * A write over a definition kept in memory (`cached`: no catalogue statement, no catalogue row lock — the write's own
 * statement locks its table, which a schema change's DDL waits for), run again once with `cached` false, its
 * definition read FOR SHARE in the transaction, when a concurrent schema change made the kept one stale; and run
 * again as it was, up to DEADLOCK_RETRIES times after a random pause, when PostgreSQL aborted it to break a deadlock
 * (batches lock their rows in key order, but nested writes of one tree from both ends — a parent with its children,
 * a child with its parent — meet in a cycle): the writers it met have gone on by then. Still deadlocked: 503.
 */
export async function retryWrite<T>(run: (cached: boolean) => Promise<T>, pause: (n: number) => Promise<void> = jitter): Promise<T> {
  let cached = true;
  for (let deadlocks = 0; ;) {
    try {
      return await run(cached);
    } catch (e) {
      if (isDeadlock(e)) {
        if (++deadlocks > DEADLOCK_RETRIES)
          throw errors.serviceUnavailable('items', 'the write kept meeting concurrent writes of the same items in a deadlock: try again');
        await pause(deadlocks);
      } else if (isStale(e) && cached) cached = false;
      else throw e;
    }
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
