import { randomUUID } from 'node:crypto';
import { ITEMS_STREAM, itemChangeSubject, type AuditEvent } from '@vellum/contracts';
import type { OutboxMessage } from '@vellum/outbox';
import type { DueVersion } from '../data/versions.repository';

/**
 * The activity of a failed scheduled promote (issue 36): an audit event `promote_failed` (an activity row, no
 * revision) on the item, by the user who scheduled it, naming the version and the reason in `comment`. Enqueued in
 * the transaction that marks the version failed, so the activity exists exactly when `publish_status` says failed.
 */
export function promoteFailedMessage(v: Pick<DueVersion, 'id' | 'key' | 'collection' | 'item' | 'publish_user'>, reason: string, at: Date): OutboxMessage {
  const event: AuditEvent = {
    v: 1,
    id: randomUUID(),
    kind: 'audit',
    action: 'promote_failed',
    collection: v.collection,
    item: v.item,
    actor: { user: v.publish_user, ip: null, user_agent: null, origin: null },
    timestamp: at.toISOString(),
    comment: `version ${v.id} (${v.key}): ${reason}`.slice(0, 2000),
  };
  return { id: event.id, destination: ITEMS_STREAM, subject: itemChangeSubject(v.collection, 'promote_failed'), payload: event };
}
