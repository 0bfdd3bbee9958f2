/**
 * The relays of this process, by the database whose outbox they publish: a write that committed outbox rows wakes
 * them here (`wakeLocalRelays`) instead of through a NOTIFY, which PostgreSQL serialises across every committing
 * transaction of the server. Other processes' rows still reach them through an explicit NOTIFY or the poll.
 */
const relays = new Map<string, Set<() => void>>();

/** The startup option of a connection whose outbox inserts do not NOTIFY (the outbox_local_wake migration). */
export const QUIET_OUTBOX_OPTION = '-c vellum.outbox_wake=local';

const quiet = new WeakSet<object>();

/**
 * Marks a connection started with QUIET_OUTBOX_OPTION (e.g. from its pool's `connect` event): `enqueueOutbox` on it
 * wakes the relays itself — this process's once the transaction commits, else through a NOTIFY in it.
 */
export function markQuietOutbox(client: object): void {
  quiet.add(client);
}

export function isQuietOutbox(client: object): boolean {
  return quiet.has(client);
}

/** Registers a relay's wake-up for `database`; returns the unregistering function. */
export function registerLocalRelay(database: string, wake: () => void): () => void {
  let set = relays.get(database);
  if (!set) relays.set(database, (set = new Set()));
  set.add(wake);
  return () => {
    set.delete(wake);
    if (set.size === 0 && relays.get(database) === set) relays.delete(database);
  };
}

/** Whether this process runs a relay of `database`. */
export function hasLocalRelay(database: string): boolean {
  return (relays.get(database)?.size ?? 0) > 0;
}

/** Wakes this process's relays of `database`; false when it has none. */
export function wakeLocalRelays(database: string | undefined): boolean {
  const set = database === undefined ? undefined : relays.get(database);
  if (!set?.size) return false;
  for (const wake of set) wake();
  return true;
}

/** The database a `pg` connection string names (its path), as a connection reports it (`client.database`). */
export function databaseOf(connectionString: string): string {
  return decodeURIComponent(new URL(connectionString).pathname.slice(1));
}
