import { listenOn, runningService, type HealthProbe, type RunningService } from '@vellum/http';
import { observeConsumer, Registry } from '@vellum/metrics';
import { MAIL_QUEUE } from '@vellum/contracts';
import type { Logger } from '@vellum/logger';
import type { Messaging } from '@vellum/messaging';
import { createApp } from './app';
import type { MailerConfig } from './config';
import { MailMetrics } from './domain/mail-metrics';
import { MailTemplates } from './domain/mail-templates';
import type { MailTransport } from './domain/mail-transport';
import { MAILER_DURABLE, startMailJobConsumer } from './events/mail-job.consumer';
import { createFileTransport } from './transports/file.transport';
import { createSmtpTransport } from './transports/smtp.transport';

export interface StartMailerDeps {
  logger: Logger;
  messaging: Messaging;
  /** Replaces the transport chosen by the config (tests, other transports). */
  transport?: MailTransport;
  /** The process's metrics registry (default: a private one). */
  metrics?: Registry;
}

export type RunningMailer = RunningService & { metrics: MailMetrics; registry: Registry; transport: MailTransport };

export function createTransportFromConfig(config: MailerConfig, logger: Logger): MailTransport {
  if (config.EMAIL_TRANSPORT === 'file') return createFileTransport(config.EMAIL_FILE_DIR, logger);
  return createSmtpTransport({
    host: config.EMAIL_SMTP_HOST!,
    port: config.EMAIL_SMTP_PORT,
    secure: config.EMAIL_SMTP_SECURE,
    ignoreTLS: config.EMAIL_SMTP_IGNORE_TLS,
    user: config.EMAIL_SMTP_USER,
    password: config.EMAIL_SMTP_PASSWORD,
    pool: config.EMAIL_SMTP_POOL,
    maxConnections: config.EMAIL_SMTP_MAX_CONNECTIONS,
    timeoutMs: config.EMAIL_SMTP_TIMEOUT,
  });
}

/**
 * Loads the templates (a broken override fails here), joins the `mailer` group of the MAIL work queue and
 * listens for health/metrics. `stop()` stops fetching, finishes the jobs in hand, then closes the transport.
 * Works with the in-process messaging shared by every service of the embedded topology as with NATS.
 */
export async function startMailer(config: MailerConfig, deps: StartMailerDeps): Promise<RunningMailer> {
  const { logger, messaging } = deps;
  const templates = new MailTemplates(config.EMAIL_TEMPLATES_PATH);
  if (config.EMAIL_SEND_TIMEOUT >= config.EMAIL_ACK_WAIT)
    logger.warn(
      { EMAIL_SEND_TIMEOUT: config.EMAIL_SEND_TIMEOUT, EMAIL_ACK_WAIT: config.EMAIL_ACK_WAIT },
      'EMAIL_SEND_TIMEOUT ≥ EMAIL_ACK_WAIT: a slow send can be redelivered to another replica while still running (possible duplicate)',
    );
  const registry = deps.metrics ?? new Registry();
  const metrics = new MailMetrics(registry);
  const transport = deps.transport ?? createTransportFromConfig(config, logger);
  const probes: Record<string, HealthProbe> = { messaging: async () => messaging.health() };

  let consumer;
  try {
    consumer = await startMailJobConsumer({
      messaging,
      transport,
      templates,
      metrics,
      logger,
      from: config.EMAIL_FROM,
      projectName: config.PROJECT_NAME,
      maxAttempts: config.EMAIL_MAX_ATTEMPTS,
      backoffMs: config.EMAIL_RETRY_BACKOFF,
      ackWaitMs: config.EMAIL_ACK_WAIT,
      sendTimeoutMs: config.EMAIL_SEND_TIMEOUT,
      concurrency: config.EMAIL_CONCURRENCY,
      sentIdsTtlMs: config.EMAIL_SENT_IDS_TTL,
    });
  } catch (err) {
    await transport.close();
    throw err;
  }
  const consuming = consumer;
  const stats = consuming.stats?.bind(consuming);
  const unobserve = stats ? observeConsumer(registry, { service: 'mailer', stream: MAIL_QUEUE, consumer: MAILER_DURABLE }, stats) : () => undefined;
  const built = createApp({ logger, metrics: registry, probes, healthToken: config.HEALTH_TOKEN });
  let server;
  try {
    server = await listenOn(built.listener, config.PORT, config.HOST);
  } catch (err) {
    await consuming.stop();
    await transport.close();
    throw err;
  }
  const http = server;
  logger.info({ url: http.url, transport: transport.kind }, 'mailer listening');

  return runningService({
    name: 'mailer',
    url: http.url,
    metrics,
    registry,
    transport,
    health: built.health,
    async stop() {
      unobserve();
      await consuming.stop(); // finishes the jobs in hand
      await http.close(5000);
      await transport.close();
    },
  });
}
