import { enqueueOutbox, type OutboxMessage } from '@vellum/outbox';
import type { Tx } from './prisma';

/** Writes messages into the outbox in the caller's transaction (`tx`), so they go out exactly when the change commits. */
export const enqueue = (tx: Tx, messages: OutboxMessage | OutboxMessage[]) => enqueueOutbox(tx, messages);
