import path from 'node:path';
import { loadConfig, loadOptionalMessagingSettings, bool, int, trustProxy, z, type Env, type MessagingSettings, type TrustProxy } from '@vellum/config';

/** The embedded topology's own settings; every other variable is passed through to the services unchanged. */
const shape = {
  PORT: int(8055, { min: 0, max: 65535 }),
  HOST: z.string().default('127.0.0.1'),
  PUBLIC_URL: z.string().url().optional(),
  DATA_DIR: z.string().default('./data'),
  /** Use this PostgreSQL server (an admin URL) instead of the embedded one. */
  DATABASE_URL: z.string().optional(),
  /** Preferred port of the embedded PostgreSQL (the next free one when busy). */
  EMBEDDED_DB_PORT: int(5433, { min: 0, max: 65535 }),
  /** Use NATS JetStream instead of in-process messaging (with NATS_PREFIX, credentials, TLS: `messaging`). */
  NATS_URL: z.string().optional(),
  LOG_LEVEL: z.string().default('info'),
  /** One metrics listener for the whole process (every service's series, labelled by `service`). */
  METRICS_ENABLED: bool(true),
  METRICS_PORT: int(9464, { min: 0, max: 65535 }),
  METRICS_HOST: z.string().default('127.0.0.1'),
  /** OTLP/HTTP collector: spans are exported when set. */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.string().url().optional(),
  /** Revisions service replicas behind the gateway (they share the database and the event consumer group). */
  REVISIONS_REPLICAS: int(1, { min: 1, max: 16 }),
  /** The first administrator, created on first start (password generated and printed once when unset). */
  ADMIN_EMAIL: z.string().email().default('admin@example.com'),
  /** Proxies in front of the gateway (default none); the services behind it are told to trust it and them. */
  TRUST_PROXY: trustProxy(),
};

export type LocalConfig = z.infer<z.ZodObject<typeof shape>> & {
  dataDir: string;
  publicUrl: string;
  env: Env;
  servicesTrustProxy: string;
  /** METRICS_PORT was set (else a taken default gives way to a free port: metrics-port.ts). */
  metricsPortExplicit: boolean;
  /** NATS settings when NATS_URL is set (the same loader as every service's main.ts). */
  messaging?: MessagingSettings;
};

export function loadLocalConfig(env: Env = process.env): LocalConfig {
  const c = loadConfig(shape, env);
  return {
    ...c,
    dataDir: path.resolve(c.DATA_DIR),
    publicUrl: c.PUBLIC_URL ?? `http://localhost:${c.PORT}`,
    env: { ...env, ADMIN_EMAIL: c.ADMIN_EMAIL },
    servicesTrustProxy: trustBehindGateway(c.TRUST_PROXY),
    metricsPortExplicit: !!env.METRICS_PORT,
    messaging: loadOptionalMessagingSettings(env, { name: 'vellum-local' }),
  };
}

/**
 * The services listen on loopback behind the in-process gateway: they trust it (one more hop, or `loopback`) and
 * whatever it trusts, so their client address (audit records, login limits) is the one the gateway saw.
 */
export function trustBehindGateway(gateway: TrustProxy): string {
  if (gateway === true) return 'true';
  if (typeof gateway === 'number') return String(gateway + 1);
  return ['loopback', ...(gateway || [])].join(',');
}
