import { z } from 'zod';
import { bool, duration, int, trustProxy } from './parsers';

/** The variables every service process reads: where it listens, its log level, metrics, health details, tracing. */
export const processVariables = {
  PORT: int(0, { min: 0, max: 65535 }),
  HOST: z.string().default('127.0.0.1'),
  LOG_LEVEL: z.string().default('info'),
  /** Prometheus metrics on their own listener (GET /metrics), apart from the public port. */
  METRICS_ENABLED: bool(true),
  METRICS_PORT: int(9464, { min: 0, max: 65535 }),
  METRICS_HOST: z.string().default('0.0.0.0'),
  /** `Authorization: Bearer <HEALTH_TOKEN>` reads the checks of GET /server/health (others get the status only). */
  HEALTH_TOKEN: z.string().optional(),
  /** OTLP/HTTP collector: spans are exported when set (OpenTelemetry SDK loaded only then). */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.string().url().optional(),
};

/** What a service with its own database, behind the gateway, reads besides `processVariables`. */
export const databaseServiceVariables = {
  DATABASE_URL: z.string().min(1),
  /** false: a separate migrate step (`node dist/main.js migrate`) applies migrations; the service only checks. */
  MIGRATE_AT_START: bool(true),
  /** Proxies whose X-Forwarded-For is believed (the gateway, and the proxies it trusts); default none. */
  TRUST_PROXY: trustProxy(),
  PUBLIC_URL: z.string().url().default('http://127.0.0.1:8055'),
};

/** The list limits of the query language: default `limit`, and the cap of `-1` and larger limits (-1 = no cap). */
export const queryLimitVariables = {
  QUERY_LIMIT_DEFAULT: int(100, { min: 1 }),
  QUERY_LIMIT_MAX: int(-1, { min: -1 }),
};

/** Requests per client address: RATE_LIMITER_POINTS per RATE_LIMITER_DURATION, then 429 (on by default or not). */
export const rateLimiterVariables = (enabledByDefault: boolean) => ({
  RATE_LIMITER_ENABLED: bool(enabledByDefault),
  RATE_LIMITER_POINTS: int(50, { min: 1 }),
  RATE_LIMITER_DURATION: duration('1s'),
});

/** The cookie of session-mode logins (the access token), read by every process that checks tokens from browsers. */
export const sessionCookieVariables = {
  SESSION_COOKIE_NAME: z.string().default('vellum_session_token'),
};
