import { z } from 'zod';

/**
 * A non-item activity (login, logout, failed login, login throttled, lockout, password reset, refresh-token reuse): recorded
 * by the revisions service as an activity row without a revision. Published on `items.<collection>.<action>`
 * with the collection `vellum_users` and the action name.
 */
export const auditEventSchema = z.object({
  v: z.literal(1),
  id: z.string().min(1).max(64),
  kind: z.literal('audit'),
  action: z.enum(['login', 'logout', 'login_failed', 'login_throttled', 'lockout', 'password_reset', 'refresh_reuse', 'tfa_enabled', 'tfa_disabled']),
  collection: z.string(),
  item: z.string().nullable(),
  actor: z.object({
    user: z.string().nullable(),
    ip: z.string().nullable().optional(),
    user_agent: z.string().nullable().optional(),
    origin: z.string().nullable().optional(),
  }),
  timestamp: z.string().datetime({ offset: true }),
});
export type AuditEvent = z.infer<typeof auditEventSchema>;
