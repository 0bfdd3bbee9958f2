import { randomUUID } from 'node:crypto';
import {
  ACCESS_BUCKET,
  API_TOKENS_BUCKET,
  ITEMS_STREAM,
  ITEMS_SUBJECTS,
  MAIL_QUEUE,
  MAIL_SUBJECT,
  MAIL_SUBJECTS,
  PUBLIC_ROLE_KEY,
  REVOKED_SESSIONS_BUCKET,
  itemChangeSubject,
  type ApiTokenEntry,
  type AuditEvent,
  type ItemChangeEvent,
  type MailJob,
  type RoleAccess,
} from '@vellum/contracts';
import { enqueueOutbox, type OutboxDestination, type OutboxMessage } from '@vellum/outbox';
import type { Tx } from '../data/prisma';

/** Where the auth outbox publishes. */
export const authOutboxDestinations: Record<string, OutboxDestination> = {
  [ITEMS_STREAM]: { type: 'stream', subjects: ITEMS_SUBJECTS },
  [MAIL_QUEUE]: { type: 'queue', subjects: MAIL_SUBJECTS },
  [ACCESS_BUCKET]: { type: 'kv' },
  [REVOKED_SESSIONS_BUCKET]: { type: 'kv' },
  [API_TOKENS_BUCKET]: { type: 'kv' },
};

/** Who did it, from where (the item-change / audit event's actor). */
export interface Actor {
  user: string | null;
  role?: string | null;
  ip?: string | null;
  userAgent?: string | null;
  origin?: string | null;
}
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
  const event: ItemChangeEvent = {
    v: 1,
    id: randomUUID(),
    collection,
    item,
    action,
    data,
    actor: { user: actor.user, role: actor.role ?? null, ip: actor.ip ?? null, user_agent: actor.userAgent ?? null, origin: actor.origin ?? null },
    timestamp: now.toISOString(),
  };
  return { id: event.id, destination: ITEMS_STREAM, subject: itemChangeSubject(collection, action), payload: event };
}

/** Where an audit event is filed: the user (default), one of their sessions, or one of their API tokens. */
export type AuditCollection = 'vellum_users' | 'vellum_sessions' | 'vellum_api_tokens';

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

export const enqueue = (tx: Tx, messages: OutboxMessage | OutboxMessage[]) => enqueueOutbox(tx, messages);
