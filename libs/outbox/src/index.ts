export { OUTBOX_TABLE_SQL, OUTBOX_CHANNEL } from './outbox-table';
export { enqueueOutbox, outboxRow, type OutboxMessage, type OutboxRow, type PrismaLike, type PgLike } from './enqueue';
export { startOutboxRelay, DEAD_LETTER_PREFIX, type OutboxRelay, type OutboxRelayOptions, type OutboxDestination, type RelayLogger } from './outbox-relay';
