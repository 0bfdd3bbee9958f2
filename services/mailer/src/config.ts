import {
  loadConfig,
  processVariables,
  loadMessagingSettings,
  z,
  duration,
  bool,
  int,
  list,
  parseDuration,
  ConfigError,
  type Env,
  type MessagingSettings,
} from '@vellum/config';

const shape = {
  ...processVariables,
  /** Shown in the mails ("Reset your password for <PROJECT_NAME>"). */
  PROJECT_NAME: z.string().default('Vellum'),

  EMAIL_FROM: z.string().min(3).default('no-reply@example.com'),
  /** Default: smtp when EMAIL_SMTP_HOST is set, else file. */
  EMAIL_TRANSPORT: z.enum(['smtp', 'file']).optional(),
  EMAIL_SMTP_HOST: z.string().optional(),
  /** Default: 465 when EMAIL_SMTP_SECURE, else 587 (nodemailer's choice). */
  EMAIL_SMTP_PORT: int(undefined, { min: 1, max: 65535 }).optional(),
  EMAIL_SMTP_USER: z.string().optional(),
  /** EMAIL_SMTP_PASSWORD_FILE works too. */
  EMAIL_SMTP_PASSWORD: z.string().optional(),
  /** TLS from the first byte (port 465). */
  EMAIL_SMTP_SECURE: bool(false),
  /** Never upgrade with STARTTLS (local relays, test sinks). */
  EMAIL_SMTP_IGNORE_TLS: bool(false),
  /** Reuse connections (nodemailer's pool). */
  EMAIL_SMTP_POOL: bool(true),
  EMAIL_SMTP_MAX_CONNECTIONS: int(5, { min: 1 }),
  /** Connection, greeting and socket-inactivity timeout of one SMTP conversation. */
  EMAIL_SMTP_TIMEOUT: duration('20s'),
  /** One send as a whole; longer → aborted and retried as a temporary failure. Keep it below EMAIL_ACK_WAIT. */
  EMAIL_SEND_TIMEOUT: duration('30s'),
  /** File transport: each message as `<job id>.eml` here. */
  EMAIL_FILE_DIR: z.string().default('./data/mail'),
  /** A directory whose `<template>.subject.txt|.html|.txt` files replace the built-in ones (file by file). */
  EMAIL_TEMPLATES_PATH: z.string().optional(),

  /** Deliveries of one job before it is dead-lettered (temporary failures). */
  EMAIL_MAX_ATTEMPTS: int(8, { min: 1 }),
  /** Delays between attempts ("1s,5s,30s,2m,5m": exponential; the last one repeats). */
  EMAIL_RETRY_BACKOFF: list(['1s', '5s', '30s', '2m', '5m']),
  /** Unacknowledged this long → the job is redelivered (the mailer holding it died). */
  EMAIL_ACK_WAIT: duration('60s'),
  /** Jobs in flight per replica. */
  EMAIL_CONCURRENCY: int(4, { min: 1, max: 100 }),
  /**
   * How long a sent job's id is remembered (so a redelivered or republished job is not mailed twice), then
   * forgotten: the sent-ids bucket's maximum age. Must outlast the retries (EMAIL_MAX_ATTEMPTS × EMAIL_ACK_WAIT plus
   * the backoff delays); the default also covers an auth service down for days with unpublished mail.
   */
  EMAIL_SENT_IDS_TTL: duration('7d'),
};

type Raw = ReturnType<typeof loadConfig<typeof shape>>;

export type MailerConfig = Omit<Raw, 'EMAIL_TRANSPORT' | 'EMAIL_RETRY_BACKOFF'> & {
  EMAIL_TRANSPORT: 'smtp' | 'file';
  /** Milliseconds. */
  EMAIL_RETRY_BACKOFF: number[];
};

/** The longest a job can be retried: every attempt held for the ack wait, plus the backoff delays between them. */
export function retryHorizonMs(maxAttempts: number, backoffMs: number[], ackWaitMs: number): number {
  let ms = maxAttempts * ackWaitMs;
  for (let i = 0; i < maxAttempts - 1 && backoffMs.length > 0; i++) ms += backoffMs[Math.min(i, backoffMs.length - 1)]!;
  return ms;
}

/** Fails fast with every problem named. */
export function loadMailerConfig(env: Env = process.env): MailerConfig {
  const c = loadConfig(shape, env);
  const problems: string[] = [];
  const backoff = c.EMAIL_RETRY_BACKOFF.map((s) => {
    const ms = parseDuration(s);
    if (ms === undefined) problems.push(`EMAIL_RETRY_BACKOFF: "${s}" is not a duration (e.g. 500, 30s, 15m)`);
    return ms ?? 0;
  });
  if (backoff.length === 0) problems.push('EMAIL_RETRY_BACKOFF: needs at least one delay');
  const transport = c.EMAIL_TRANSPORT ?? (c.EMAIL_SMTP_HOST ? 'smtp' : 'file');
  if (transport === 'smtp' && !c.EMAIL_SMTP_HOST) problems.push('EMAIL_SMTP_HOST: is required when EMAIL_TRANSPORT=smtp');
  if (c.EMAIL_SMTP_PASSWORD && !c.EMAIL_SMTP_USER) problems.push('EMAIL_SMTP_USER: is required with EMAIL_SMTP_PASSWORD');
  const horizon = retryHorizonMs(c.EMAIL_MAX_ATTEMPTS, backoff, c.EMAIL_ACK_WAIT);
  if (c.EMAIL_SENT_IDS_TTL <= horizon)
    problems.push(
      `EMAIL_SENT_IDS_TTL: must be longer than a job's retries (${Math.ceil(horizon / 1000)} s with these EMAIL_MAX_ATTEMPTS, EMAIL_RETRY_BACKOFF and EMAIL_ACK_WAIT)`,
    );
  if (problems.length) throw new ConfigError(problems);
  return { ...c, EMAIL_TRANSPORT: transport, EMAIL_RETRY_BACKOFF: backoff };
}

/** NATS settings (@vellum/config's one loader: NATS_URL required, NATS_PREFIX, credentials, TLS), read by main.ts only. */
export const loadNatsSettings = (env: Env = process.env): MessagingSettings => loadMessagingSettings(env, { name: 'mailer' });
