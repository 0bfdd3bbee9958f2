import { ITEMS_STREAM, MAIL_QUEUE } from '@vellum/contracts';
import { createInProcessMessaging, type BucketStore, type Messaging } from '@vellum/messaging';
import { MAILER_DURABLE } from '@vellum/mailer';
import { REVISIONS_DURABLE } from '@vellum/revisions';

/**
 * The in-process messaging of the embedded topology, with its durable consumers declared: an outbox row stays
 * unpublished until the revisions service has recorded the event (its transaction committed) or the mailer has
 * sent the mail, even when it was published before that consumer joined. After a crash the relays publish the
 * rows again; both consumers are idempotent by message id — revisions in its own database, the mailer through
 * its sent-ids bucket, which `stores` (`openDurableBuckets`) keeps in PostgreSQL (without it, in memory only).
 */
export function createEmbeddedMessaging(stores?: Record<string, BucketStore>): Messaging {
  return createInProcessMessaging({ consumers: { [ITEMS_STREAM]: [REVISIONS_DURABLE], [MAIL_QUEUE]: [MAILER_DURABLE] }, stores });
}
