import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { outboxRow, type OutboxMessage } from '@vellum/outbox';
import type { Session } from './prisma';

export interface SuccessfulLogin {
  userId: string;
  now: Date;
  /** The TOTP time step the code matched: claimed with compare-and-set (a step already used refuses the login). */
  otpStep?: number;
  tokenHash: string;
  expiresAt: Date;
  ip: string | null;
  userAgent: string | null;
  origin: string | null;
  /** The `login` audit event. */
  event: OutboxMessage;
}

/**
 * The whole write side of a successful login in ONE statement (its own transaction): reset the failure count, stamp last_access, claim the TOTP step (only if still unused), create the session (a new family)
 * and insert the audit event into the outbox. The inserts read the updated row, so when the step was already
 * claimed (or the user is gone) nothing at all is written. It answers only whether the session was written: its
 * id, family and expiry are the values sent (no row to decode, no timestamp to parse).
 */
const RECORD_SUCCESS = `
WITH u AS (
  UPDATE "users"
     SET "failed_login_attempts" = 0, "last_access" = $2,
         "tfa_last_step" = COALESCE($3::int, "tfa_last_step")
   WHERE "id" = $1::uuid AND ($3::int IS NULL OR "tfa_last_step" < $3::int)
  RETURNING "id"
), s AS (
  INSERT INTO "sessions" ("id", "token_hash", "user_id", "expires_at", "family_id", "family_created_at", "ip", "user_agent", "origin")
  SELECT $4::uuid, $5, u."id", $6, $15::uuid, $2, $7, $8, $9 FROM u
  RETURNING "id"
), o AS (
  INSERT INTO "outbox" ("id", "destination", "subject", "payload", "headers")
  SELECT $10::uuid, $11, $12, $13::jsonb, $14::jsonb FROM u
)
SELECT "id" FROM s`;

export interface FailedLogin {
  /** The account's id; null for an unknown e-mail (nothing to count, the events only). */
  userId: string | null;
  /** Whether it adds to the user's consecutive failures (a wrong password or code). */
  count: boolean;
  /** Audit events written with it: `login_failed`, and `lockout` when this failure locked a bucket. */
  events: OutboxMessage[];
}

/** A failed login in ONE statement: the consecutive-failure count (in SQL: parallel failures each count) and its events. */
const RECORD_FAILURE = `
WITH u AS (
  UPDATE "users" SET "failed_login_attempts" = "failed_login_attempts" + 1 WHERE "id" = $1::uuid AND $2::boolean
)
INSERT INTO "outbox" ("id", "destination", "subject", "payload", "headers")
SELECT * FROM unnest($3::uuid[], $4::text[], $5::text[], $6::jsonb[], $7::jsonb[])`;

export const loginRepository = {
  /** The new session, or undefined when nothing was written (TOTP step already used, or the user was deleted). */
  async recordSuccess(pg: Pick<Pool, 'query'>, l: SuccessfulLogin): Promise<Pick<Session, 'id' | 'expires_at' | 'family_id'> | undefined> {
    const o = outboxRow(l.event);
    const id = randomUUID();
    const familyId = randomUUID(); // never a row id (a rotated row id is revoked, the family lives on)
    const { rows } = await pg.query<{ id: string }>({
      name: 'auth_record_login',
      text: RECORD_SUCCESS,
      values: [l.userId, l.now, l.otpStep ?? null, id, l.tokenHash, l.expiresAt, l.ip, l.userAgent, l.origin, o.id, o.destination, o.subject, o.payload, o.headers, familyId],
    });
    // expires_at is stored as sent: timestamptz(3) keeps a Date's milliseconds
    return rows.length ? { id, expires_at: l.expiresAt, family_id: familyId } : undefined;
  },

  async recordFailure(pg: Pick<Pool, 'query'>, f: FailedLogin): Promise<void> {
    const rows = f.events.map(outboxRow);
    await pg.query({
      name: 'auth_record_login_failure',
      text: RECORD_FAILURE,
      values: [f.userId, f.count && f.userId !== null, ...(['id', 'destination', 'subject', 'payload', 'headers'] as const).map((k) => rows.map((r) => r[k]))],
    });
  },
};
