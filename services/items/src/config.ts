import { loadConfig, loadMessagingSettings, z, bool, duration, int, trustProxy, type Env, type MessagingSettings } from '@vellum/config';

const shape = {
  PORT: int(0, { min: 0, max: 65535 }),
  HOST: z.string().default('127.0.0.1'),
  DATABASE_URL: z.string().min(1),
  /** false: a separate migrate step (`node dist/main.js migrate`) applies migrations; the service only checks. */
  MIGRATE_AT_START: bool(true),
  /** Proxies whose X-Forwarded-For is believed (the gateway, and the proxies it trusts); default none. */
  TRUST_PROXY: trustProxy(),
  PUBLIC_URL: z.string().url().default('http://127.0.0.1:8055'),
  LOG_LEVEL: z.string().default('info'),
  /** Prometheus metrics on their own listener (GET /metrics), apart from the public port. */
  METRICS_ENABLED: bool(true),
  METRICS_PORT: int(9464, { min: 0, max: 65535 }),
  METRICS_HOST: z.string().default('0.0.0.0'),
  /** `Authorization: Bearer <HEALTH_TOKEN>` reads the checks of GET /server/health (others get the status only). */
  HEALTH_TOKEN: z.string().optional(),
  /** OTLP/HTTP collector: spans are exported when set (OpenTelemetry SDK loaded only then). */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.string().url().optional(),
  /** Internal base URL of the auth service: its JWKS verifies access tokens. */
  AUTH_URL: z.string().url().optional(),
  /** Default and maximum `limit` of GET /items/:collection (-1 = no maximum). */
  QUERY_LIMIT_DEFAULT: int(100, { min: 1 }),
  QUERY_LIMIT_MAX: int(-1, { min: -1 }),
  /** Connections of the items pool (dynamic tables) and of Prisma (catalogue). */
  DB_POOL_MAX: int(10, { min: 1 }),
  /** The outbox relay's polling fallback (it is woken by LISTEN/NOTIFY otherwise). */
  OUTBOX_POLL_INTERVAL: duration('1s'),
};

export type ItemsConfig = ReturnType<typeof loadConfig<typeof shape>>;

export function loadItemsConfig(env: Env = process.env): ItemsConfig {
  return loadConfig(shape, env);
}

/** NATS settings (@vellum/config's one loader: NATS_URL required, NATS_PREFIX, credentials, TLS), read by main.ts only. */
export const loadNatsSettings = (env: Env = process.env): MessagingSettings => loadMessagingSettings(env, { name: 'items' });
