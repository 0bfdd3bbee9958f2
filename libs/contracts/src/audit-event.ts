import { z } from 'zod';

/**
 * A non-item activity (login, logout, failed login, login throttled, lockout, password reset, refresh-token reuse,
 * a session ended, an API token created / used for the first time / revoked): recorded by the revisions service as
 * an activity row without a revision. Published on `items.<collection>.<action>` with the collection
 * (`vellum_users` with the user's id; `vellum_sessions` with the session id; `vellum_api_tokens` with the
 * token's id — never its secret; `vellum_devices` with `<user>:<hashed device id | untrusted | otp>` for failed
 * logins, locks, unlocks and device trust) and the action name. `promote_failed` (items service): a scheduled promote
 * of a content version failed; filed under the item's collection and key, by the user who scheduled it, with the
 * version and the reason in `comment`.
 */
export const auditEventSchema = z.object({
  v: z.literal(1),
  id: z.string().min(1).max(64),
  kind: z.literal('audit'),
  action: z.enum([
    'login',
    'logout',
    'login_failed',
    'login_throttled',
    'lockout',
    'password_reset',
    'refresh_reuse',
    'tfa_enabled',
    'tfa_disabled',
    'session_ended',
    'token_created',
    'token_first_use',
    'token_revoked',
    'device_trusted',
    'device_revoked',
    'unlock',
    'promote_failed',
  ]),
  collection: z.string(),
  item: z.string().nullable(),
  actor: z.object({
    user: z.string().nullable(),
    ip: z.string().nullable().optional(),
    user_agent: z.string().nullable().optional(),
    origin: z.string().nullable().optional(),
  }),
  timestamp: z.string().datetime({ offset: true }),
  /** Free text recorded as the activity's `comment` (e.g. why a scheduled promote failed). */
  comment: z.string().max(2000).nullable().optional(),
});
export type AuditEvent = z.infer<typeof auditEventSchema>;
