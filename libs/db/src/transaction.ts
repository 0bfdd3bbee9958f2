import type { ClientBase, Pool, PoolClient } from 'pg';

/** Connections whose ROLLBACK failed (they died mid-transaction): released with `release(true)` so the pool drops them. */
const broken = new WeakSet<ClientBase>();

/** Whether a ROLLBACK on this connection failed: pass to `client.release(…)` so a dead connection is not reused. */
export function isBroken(client: ClientBase): boolean {
  return broken.has(client);
}

/**
 * `fn` inside BEGIN … COMMIT on a connection the caller holds; ROLLBACK when `fn` (or COMMIT) throws, and the error
 * is rethrown. A failing ROLLBACK marks the connection broken (`isBroken`) instead of hiding the first error.
 */
export async function inTransaction<T>(client: ClientBase, fn: (client: ClientBase) => Promise<T>): Promise<T> {
  await client.query('BEGIN');
  try {
    const result = await fn(client);
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
