import type { ClientBase, Pool, PoolClient } from 'pg';

/** Connections whose ROLLBACK failed (they died mid-transaction): released with `release(true)` so the pool drops them. */
const broken = new WeakSet<ClientBase>();

/** Whether a ROLLBACK on this connection failed: pass to `client.release(…)` so a dead connection is not reused. */
export function isBroken(client: ClientBase): boolean {
  return broken.has(client);
}

/** A connection made with pg's `pipeline` option: it sends each statement without waiting for the one before. */
export function isPipelined(client: ClientBase): boolean {
  return (client as ClientBase & { readonly pipeline?: boolean }).pipeline === true;
}

/** What an open transaction (by connection) does at COMMIT: statements to settle, then what runs once it committed. */
interface AtCommit {
  pending: Promise<unknown>[];
  failure?: { err: unknown };
  committed: (() => void)[];
}
const atCommit = new WeakMap<object, AtCommit>();

/**
 * `fn` runs once the transaction open on `client` (in `inTransaction`) has committed, not if it rolls back; false
 * (and `fn` not kept) when no such transaction is open on it.
 */
export function afterCommit(client: object, fn: () => void): boolean {
  const tx = atCommit.get(client);
  if (!tx) return false;
  tx.committed.push(fn);
  return true;
}

/**
 * A statement of the transaction open on `client` whose answer nothing in it needs: awaited at COMMIT instead of now,
 * so on a pipelined connection COMMIT goes out right behind it (one round trip fewer). Its failure still fails the
 * transaction: PostgreSQL ends a failed transaction's COMMIT with a rollback, and `inTransaction` throws that error.
 * Outside `inTransaction` it is simply awaited.
 */
export async function settleAtCommit(client: object, statement: PromiseLike<unknown>): Promise<void> {
  const tx = atCommit.get(client);
  if (!tx) {
    await statement;
    return;
  }
  tx.pending.push(
    Promise.resolve(statement).then(undefined, (err: unknown) => {
      tx.failure ??= { err };
    }),
  );
}

/** An after-commit hook's failure is not the transaction's (it has committed): ignored. */
function runHook(fn: () => void): void {
  try {
    fn();
  } catch {
    // ignored (see above)
  }
}

/**
 * `fn` inside BEGIN … COMMIT on a connection the caller holds; ROLLBACK when `fn` (or COMMIT) throws, and the error
 * is rethrown. A failing ROLLBACK marks the connection broken (`isBroken`) instead of hiding the first error.
 */
export async function inTransaction<T>(client: ClientBase, fn: (client: ClientBase) => Promise<T>): Promise<T> {
  // On a pipelined connection (pg's `pipeline` option) BEGIN goes out with the transaction's first statement: one
  // round trip fewer. A failed BEGIN fails that statement too (the server runs them in order), so it surfaces below.
  const begun = client.query('BEGIN');
  begun.catch(() => undefined); // awaited below; a failure that fn's own error overtakes is not an unhandled one
  const tx: AtCommit = { pending: [], committed: [] };
  atCommit.set(client, tx);
  try {
    if (!isPipelined(client)) await begun;
    const result = await fn(client);
    await begun;
    const committed = client.query('COMMIT');
    committed.catch(() => undefined);
    await Promise.all(tx.pending);
    // a statement left for COMMIT failed: the transaction was aborted, and its COMMIT rolled it back
    if (tx.failure) throw tx.failure.err;
    await committed;
    atCommit.delete(client);
    for (const fn of tx.committed) runHook(fn);
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => broken.add(client));
    await Promise.all(tx.pending);
    // the root cause: a statement left for COMMIT that failed makes the ones after it fail as "aborted"
    throw tx.failure ? tx.failure.err : err;
  } finally {
    atCommit.delete(client);
  }
}

/**
 * `fn` on a pooled connection, released afterwards — destroyed if broken. A connection dying meanwhile (database
 * restart, failover) fails this call, not the process: its `error` event is caught here and it is not reused.
 */
export async function withConnection<T>(pool: Pool, fn: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  const onError = () => broken.add(client);
  client.on('error', onError);
  try {
    return await fn(client);
  } finally {
    client.off('error', onError);
    client.release(isBroken(client));
  }
}

/** `fn` in one transaction on a pooled connection (see `inTransaction` and `withConnection`). */
export const withTransaction = <T>(pool: Pool, fn: (client: PoolClient) => Promise<T>): Promise<T> =>
  withConnection(pool, (client) => inTransaction(client, () => fn(client)));
