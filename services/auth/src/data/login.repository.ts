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
 * The whole write side of a successful login in ONE statement (its own transaction): reset the failure counters
 * and the lock, stamp last_access, claim the TOTP step (only if still unused), create the session (a new family)
 * and insert the audit event into the outbox. The inserts read the updated row, so when the step was already
 * claimed (or the user is gone) nothing at all is written. It answers only whether the session was written: its
 * id, family and expiry are the values sent (no row to decode, no timestamp to parse).
 */
const RECORD_SUCCESS = `
WITH u AS (
  UPDATE "users"
     SET "failed_login_attempts" = 0, "lock_count" = 0, "locked_until" = NULL, "last_access" = $2,
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
  userId: string;
  now: Date;
  /** Whether it counts toward the lockout (a wrong password or code; not a locked or other-provider account). */
  count: boolean;
  attempts: number;
  lockMs: number;
  lockMaxMs: number;
  /** The `login_failed` audit event (always written) and the `lockout` one (written when this failure locks). */
  event: OutboxMessage;
  lockoutEvent: OutboxMessage;
}

/**
 * A failed login in ONE statement: count it (parallel failures each count: the increment is in SQL), and when it
 * reaches `attempts`, lock the account for lockMs × 2^(locks so far), at most lockMaxMs, and restart the count;
 * the audit event(s) go into the outbox with it. In SET the columns are the values before the update; RETURNING
 * sees the new ones (a count back at 0 means this failure locked).
 */
const RECORD_FAILURE = `
WITH u AS (
  UPDATE "users"
     SET "failed_login_attempts" = CASE WHEN "failed_login_attempts" + 1 >= $3::int THEN 0 ELSE "failed_login_attempts" + 1 END,
         "lock_count" = CASE WHEN "failed_login_attempts" + 1 >= $3::int THEN "lock_count" + 1 ELSE "lock_count" END,
         "locked_until" = CASE WHEN "failed_login_attempts" + 1 >= $3::int
           THEN $4::timestamptz + LEAST($5::float8 * power(2::float8, LEAST("lock_count", 30)), $6::float8) * interval '1 millisecond'
           ELSE "locked_until" END
   WHERE "id" = $1::uuid AND $2::boolean
  RETURNING "failed_login_attempts" = 0 AS locked, "lock_count" - 1 AS previous_locks
), o AS (
  INSERT INTO "outbox" ("id", "destination", "subject", "payload", "headers")
  SELECT m.id, m.destination, m.subject, m.payload, m.headers
    FROM (VALUES ($7::uuid, $8::text, $9::text, $10::jsonb, $11::jsonb, false), ($12::uuid, $13::text, $14::text, $15::jsonb, $16::jsonb, true))
         AS m (id, destination, subject, payload, headers, on_lock)
   WHERE NOT m.on_lock OR EXISTS (SELECT 1 FROM u WHERE u.locked)
)
SELECT "locked", "previous_locks" FROM u`;

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

  /** Whether this failure locked the account, and how many locks came before it. */
  async recordFailure(pg: Pick<Pool, 'query'>, f: FailedLogin): Promise<{ locked: boolean; previousLocks: number }> {
    const e = outboxRow(f.event);
    const l = outboxRow(f.lockoutEvent);
    const { rows } = await pg.query<{ locked: boolean; previous_locks: number }>({
      name: 'auth_record_login_failure',
      text: RECORD_FAILURE,
      values: [f.userId, f.count, f.attempts, f.now, f.lockMs, f.lockMaxMs, e.id, e.destination, e.subject, e.payload, e.headers, l.id, l.destination, l.subject, l.payload, l.headers],
    });
    return { locked: rows[0]?.locked ?? false, previousLocks: rows[0]?.previous_locks ?? 0 };
  },
};
