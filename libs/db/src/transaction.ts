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

/**
 * `fn` inside BEGIN … COMMIT on a connection the caller holds; ROLLBACK when `fn` (or COMMIT) throws, and the error
 * is rethrown. A failing ROLLBACK marks the connection broken (`isBroken`) instead of hiding the first error.
 */
export async function inTransaction<T>(client: ClientBase, fn: (client: ClientBase) => Promise<T>): Promise<T> {
  // On a pipelined connection (pg's `pipeline` option) BEGIN goes out with the transaction's first statement: one
  // round trip fewer. A failed BEGIN fails that statement too (the server runs them in order), so it surfaces below.
  const begun = client.query('BEGIN');
  begun.catch(() => undefined); // awaited below; a failure that fn's own error overtakes is not an unhandled one
  try {
    if (!isPipelined(client)) await begun;
    const result = await fn(client);
    await begun;
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => broken.add(client));
    throw err;
  }
}

/**
 * `fn` in one transaction on a pooled connection (see `inTransaction`), released afterwards — destroyed if broken.
 * A connection dying meanwhile (database restart, failover) fails this call, not the process: its `error` event is
 * caught here and the connection is not reused.
 */
export async function withTransaction<T>(pool: Pool, fn: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  const onError = () => broken.add(client);
  client.on('error', onError);
  try {
    return await inTransaction(client, () => fn(client));
  } finally {
    client.off('error', onError);
    client.release(isBroken(client));
  }
}
