/** Runs SQL on the database under test (a pool's or a client's `query`). */
type Query = (text: string) => Promise<{ rows: Record<string, unknown>[] }>;

/**
 * Resolves once at least `count` backends of the current database wait for a lock: the writes a test started are
 * parked behind the lock it holds. Throws after ~5 s.
 */
export async function untilLockWaiters(query: Query, count = 1): Promise<void> {
  for (let i = 0; i < 500; i++) {
    const { rows } = await query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`);
    if (Number(rows[0]!.n) >= count) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`fewer than ${count} backends waited for a lock`);
}
