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
 * claimed (or the user is gone) nothing at all is written.
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
  SELECT $4::uuid, $5, u."id", $6, $4::uuid, $2, $7, $8, $9 FROM u
  RETURNING "id", "expires_at"
), o AS (
  INSERT INTO "outbox" ("id", "destination", "subject", "payload", "headers")
  SELECT $10::uuid, $11, $12, $13::jsonb, $14::jsonb FROM u
)
SELECT "id", "expires_at" FROM s`;

export const loginRepository = {
  /** The new session, or undefined when nothing was written (TOTP step already used, or the user was deleted). */
  async recordSuccess(pg: Pick<Pool, 'query'>, l: SuccessfulLogin): Promise<Pick<Session, 'id' | 'expires_at'> | undefined> {
    const o = outboxRow(l.event);
    const { rows } = await pg.query<Pick<Session, 'id' | 'expires_at'>>({
      name: 'auth_record_login',
      text: RECORD_SUCCESS,
      values: [
        l.userId,
        l.now,
        l.otpStep ?? null,
        randomUUID(),
        l.tokenHash,
        l.expiresAt,
        l.ip,
        l.userAgent,
        l.origin,
        o.id,
        o.destination,
        o.subject,
        o.payload,
        o.headers,
      ],
    });
    return rows[0];
  },
};
