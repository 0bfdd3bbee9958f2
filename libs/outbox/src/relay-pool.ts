import { Pool } from 'pg';

/**
 * The relay's connections. Its statements (claim, mark, attempts, dead letters) commit without waiting for the WAL
 * flush (`synchronous_commit=off`): a mark lost in a crash only publishes its row again, under the same message id,
 * which every consumer drops as a duplicate (the broker within its window, the revisions recorder by event id, the
 * mailer by job id) — so the relay no longer queues for the flush beside the writes it relays.
 */
export function createRelayPool(connectionString: string): Pool {
  return new Pool({
    connectionString,
    max: 2,
    application_name: 'vellum-outbox-relay',
    pipeline: true,
    options: '-c synchronous_commit=off',
  });
}
