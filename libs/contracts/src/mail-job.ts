import { z } from 'zod';

export const MAIL_JOB_VERSION = 1;

/** A mail to send (auth → outbox → MAIL queue → mailer). Unknown versions are dead-lettered by the mailer. */
export const mailJobSchema = z.object({
  v: z.literal(MAIL_JOB_VERSION),
  /** Job id (uuid): the idempotency key of the send. */
  id: z.string().min(1).max(64),
  template: z.enum(['password-reset', 'user-invitation']),
  to: z.string().email(),
  /** Template values: `url` (the link with the token), optional `name`, `project`. */
  data: z.object({ url: z.string().url(), name: z.string().optional(), project: z.string().optional() }),
  created_at: z.string().datetime({ offset: true }),
});
export type MailJob = z.infer<typeof mailJobSchema>;
