import { ACCESS_BUCKET, API_TOKENS_BUCKET, ITEMS_STREAM, ITEMS_SUBJECTS, MAIL_QUEUE, MAIL_SUBJECTS, REVOKED_SESSIONS_BUCKET } from '@vellum/contracts';
import type { OutboxDestination } from '@vellum/outbox';

/** Where the auth outbox relay publishes (the messages are built in domain/auth-messages.ts). */
export const authOutboxDestinations: Record<string, OutboxDestination> = {
  [ITEMS_STREAM]: { type: 'stream', subjects: ITEMS_SUBJECTS },
  [MAIL_QUEUE]: { type: 'queue', subjects: MAIL_SUBJECTS },
  [ACCESS_BUCKET]: { type: 'kv' },
  [REVOKED_SESSIONS_BUCKET]: { type: 'kv' },
  [API_TOKENS_BUCKET]: { type: 'kv' },
};
