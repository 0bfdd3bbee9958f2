/** SQLSTATEs of a statement built from a definition a concurrent schema change made stale (a dropped column, a changed result type). */
const STALE = new Set(['42703', '0A000']);

/**
 * Runs a read or a write (its own transaction) again, once, when it failed because a field change committed
 * between loading the collection's definition and running its statement: the second run loads the new one.
 */
export async function retryOnSchemaChange<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (!STALE.has((e as { code?: string }).code ?? '')) throw e;
    return run();
  }
}
