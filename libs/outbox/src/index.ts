export { OUTBOX_CHANNEL, OUTBOX_MIGRATIONS_DIR } from './outbox-table';
export { enqueueOutbox, outboxRow, type OutboxMessage, type OutboxRow, type PrismaLike, type PgLike } from './enqueue';
export { DEAD_LETTER_PREFIX } from './settle-tracker';
export { startOutboxRelay, type OutboxRelay, type OutboxRelayOptions, type OutboxDestination, type RelayLogger } from './outbox-relay';
export { QUIET_OUTBOX_OPTION, databaseOf, markQuietOutbox, registerLocalRelay } from './local-wake';
export { OUTBOX_INSERT, wakeAfterStatement, wakesAfterStatement } from './statement-insert';
