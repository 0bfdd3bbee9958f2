import { hasLocalRelay, isQuietOutbox, wakeLocalRelays } from './local-wake';

// An outbox row written by a data-modifying CTE of the caller's own statement (autocommit: the statement is the
// transaction), for a write that needs no BEGIN … COMMIT around it. The caller builds the row's SELECT.

/** `INSERT INTO "outbox" (…)` with the columns in `outboxRow`'s order: id, destination, subject, payload, headers. */
export const OUTBOX_INSERT = 'INSERT INTO "outbox" ("id", "destination", "subject", "payload", "headers")';

/** A `pg` connection, as pg's clients describe themselves. */
interface Connection {
  readonly database?: string;
}

/**
 * Whether rows a statement of its own inserts on `client` reach a relay without `enqueueOutbox`: the table's trigger
 * NOTIFYs for them, or the connection is quiet and this process runs the database's relay (`wakeAfterStatement`).
 */
export const wakesAfterStatement = (client: Connection): boolean => !isQuietOutbox(client) || (client.database !== undefined && hasLocalRelay(client.database));

/** After such a statement committed rows on a quiet connection: wakes this process's relay (the trigger did not). */
export function wakeAfterStatement(client: Connection): void {
  if (isQuietOutbox(client)) wakeLocalRelays(client.database);
}
