import { randomUUID } from 'node:crypto';
import {
  ACCESS_BUCKET,
  API_TOKENS_BUCKET,
  ITEMS_STREAM,
  MAIL_QUEUE,
  MAIL_SUBJECT,
  PUBLIC_ROLE_KEY,
  REVOKED_SESSIONS_BUCKET,
  itemChangeMessage,
  itemChangeSubject,
  type ApiTokenEntry,
  type AuditEvent,
  type ChangeActor,
  type MailJob,
  type RoleAccess,
} from '@vellum/contracts';
import type { OutboxMessage } from '@vellum/outbox';

// The messages auth publishes: the use cases decide what happened and build them here; data/outbox.repository.ts
// writes them in the change's transaction, and the relay (events/outbox-destinations.ts) publishes them.

/** Who did it, from where (the item-change / audit event's actor). */
export type Actor = ChangeActor;
export const systemActor: Actor = { user: null, role: null };

export type AuthCollection = 'vellum_users' | 'vellum_roles' | 'vellum_permissions';

export function itemChange(
  collection: AuthCollection,
  action: 'create' | 'update' | 'delete',
  item: string,
  data: Record<string, unknown> | null,
  actor: Actor,
  now: Date,
): OutboxMessage {
  return itemChangeMessage({ collection, item, action, data, actor, at: now });
}

/**
 * Where an audit event is filed: the user (default), one of their sessions, one of their API tokens, or one of their
 * login buckets (`vellum_devices`, item `<user>:<hashed device id | untrusted | otp>`).
 */
export type AuditCollection = 'vellum_users' | 'vellum_sessions' | 'vellum_api_tokens' | 'vellum_devices';

export function audit(action: AuditEvent['action'], item: string | null, actor: Actor, now: Date, collection: AuditCollection = 'vellum_users'): OutboxMessage {
  const event: AuditEvent = {
    v: 1,
    id: randomUUID(),
    kind: 'audit',
    action,
    collection,
    item,
    actor: { user: actor.user, ip: actor.ip ?? null, user_agent: actor.userAgent ?? null, origin: actor.origin ?? null },
    timestamp: now.toISOString(),
  };
  return { id: event.id, destination: ITEMS_STREAM, subject: itemChangeSubject(collection, action), payload: event };
}

export function mail(job: MailJob): OutboxMessage {
  return { id: job.id, destination: MAIL_QUEUE, subject: MAIL_SUBJECT, payload: job };
}

/** A mail whose link opens `page` with `token` in its `token` parameter (password reset, invitation). */
export function tokenLinkMail(
  job: { template: MailJob['template']; to: string; page: string; token: string; data: Omit<MailJob['data'], 'url'> },
  now: Date,
): OutboxMessage {
  const link = new URL(job.page);
  link.searchParams.set('token', job.token);
  const data = { url: link.toString(), ...job.data };
  return mail({ v: 1, id: randomUUID(), template: job.template, to: job.to, data, created_at: now.toISOString() });
}

export function accessRules(roleId: string | null, access: RoleAccess | null): OutboxMessage {
  return { destination: ACCESS_BUCKET, subject: roleId ?? PUBLIC_ROLE_KEY, payload: access };
}

export function revokedSessions(ids: string[], now: Date, expiresAt?: Date): OutboxMessage[] {
  return ids.map((id) => ({
    destination: REVOKED_SESSIONS_BUCKET,
    subject: id,
    payload: { revoked_at: now.toISOString(), ...(expiresAt ? { expires_at: expiresAt.toISOString() } : {}) },
  }));
}

/** A token's entry in the API-tokens map (key: its hash); undefined removes it (revoked, expired, user not active). */
export function apiTokenEntry(hash: string, entry: ApiTokenEntry | undefined): OutboxMessage {
  return { destination: API_TOKENS_BUCKET, subject: hash, payload: entry ?? null };
}
