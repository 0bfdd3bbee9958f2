import path from 'node:path';
import {
  loadConfig,
  loadOptionalMessagingSettings,
  processVariables,
  queryLimitVariables,
  rateLimiterVariables,
  sessionCookieVariables,
  bool,
  duration,
  int,
  list,
  trustProxy,
  z,
  type Env,
  type MessagingSettings,
} from '@vellum/config';

/** CORS_ORIGIN: "true" (reflect any origin), "false", or a comma list of origins. */
const corsOrigin = () =>
  z
    .string()
    .transform((v): boolean | string[] => {
      const t = v.trim();
      if (t === 'true' || t === '*') return true;
      if (t === 'false') return false;
      return t
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
    })
    .prefault('false');

/** How the gateway reaches the services' replicas (proxy/upstream-pool.ts). */
const upstreamVariables = {
  /** Time allowed to open a TCP connection to an upstream. */
  UPSTREAM_CONNECT_TIMEOUT: duration('2s'),
  /** Time allowed for an upstream to start answering (status + headers), and the idle limit while streaming. */
  UPSTREAM_RESPONSE_TIMEOUT: duration('30s'),
  /** How long a replica that refused/timed out a connection is skipped. */
  UPSTREAM_FAIL_COOLDOWN: duration('5s'),
  /** Keep-alive pool size per replica. */
  UPSTREAM_MAX_SOCKETS: int(256, { min: 1 }),
};

const shape = {
  ...processVariables,
  PORT: int(8055, { min: 0, max: 65535 }),
  PUBLIC_URL: z.string().url().optional(),
  /** Upstreams: comma lists of base URLs per service (replicas). AUTH_URL etc. are accepted for one replica. */
  AUTH_URLS: list(),
  AUTH_URL: z.string().url().optional(),
  REVISIONS_URLS: list(),
  REVISIONS_URL: z.string().url().optional(),
  ITEMS_URLS: list(),
  ITEMS_URL: z.string().url().optional(),
  ...upstreamVariables,
  HEALTH_TIMEOUT: duration('2s'),
  /** Unknown token kids refetch the auth service's key set at most this often. */
  JWKS_MIN_REFRESH_INTERVAL: duration('5s'),
  /** Verified access tokens remembered until they expire (least recently used dropped first); 0 = no cache. */
  TOKEN_CACHE_SIZE: int(10_000, { min: 0 }),
  ...sessionCookieVariables,
  /** Proxies in front of the gateway whose X-Forwarded-* are believed (default none: the socket address is the client). */
  TRUST_PROXY: trustProxy(),
  ...rateLimiterVariables(false),
  /** memory (one gateway) or redis (shared by every gateway replica); default redis when REDIS_URL is set. */
  RATE_LIMITER_STORE: z.enum(['memory', 'redis']).optional(),
  REDIS_URL: z.string().optional(),
  CORS_ENABLED: bool(false),
  CORS_ORIGIN: corsOrigin(),
  CORS_CREDENTIALS: bool(true),
  // If-Match / ETag: an item's version (lost updates); X-Vellum-*: reading one's own write in /revisions
  CORS_ALLOWED_HEADERS: list(['Content-Type', 'Authorization', 'X-Request-Id', 'If-Match', 'X-Vellum-Min-Version']),
  CORS_EXPOSED_HEADERS: list(['Content-Range', 'X-Request-Id', 'Retry-After', 'ETag', 'X-Vellum-Version', 'X-Vellum-Behind']),
  CORS_MAX_AGE: int(18000),
  GRAPHQL_INTROSPECTION: bool(true),
  /** GET /server/info: the project basics (Directus settings the SDK reads). */
  PROJECT_NAME: z.string().default('Vellum'),
  PROJECT_DESCRIPTOR: z.string().optional(),
  PROJECT_COLOR: z.string().optional(),
  DEFAULT_LANGUAGE: z.string().default('en-US'),
  /** The services' list limits, reported by /server/info to signed-in users (-1: no maximum). */
  ...queryLimitVariables,
  /** The built admin app served at /admin (apps/admin/dist of this checkout or image). */
  ADMIN_APP_DIR: z.string().default(path.resolve(__dirname, '../../apps/admin/dist')),
};

type Raw = ReturnType<typeof loadConfig<typeof shape>>;
export type GatewayConfig = Omit<Raw, 'AUTH_URL' | 'REVISIONS_URL' | 'ITEMS_URL'>;

export function loadGatewayConfig(env: Env = process.env): GatewayConfig {
  const raw = loadConfig(shape, env);
  const { AUTH_URL, REVISIONS_URL, ITEMS_URL, ...rest } = raw;
  const pick = (many: string[], one?: string) => (many.length ? many : one ? [one] : []);
  return {
    ...rest,
    AUTH_URLS: pick(raw.AUTH_URLS, AUTH_URL),
    REVISIONS_URLS: pick(raw.REVISIONS_URLS, REVISIONS_URL),
    ITEMS_URLS: pick(raw.ITEMS_URLS, ITEMS_URL),
  };
}

/**
 * @apollo/gateway starts an OpenTelemetry data-collection exporter (outbound calls to Apollo) unless this
 * variable is set when it is constructed; Vellum never phones home, so createGateway calls this first.
 */
export function disableApolloTelemetry(): void {
  process.env.APOLLO_TELEMETRY_DISABLED = 'true';
}

/**
 * NATS settings (@vellum/config's one loader), read by main.ts only; undefined when NATS_URL is unset (the gateway
 * then runs without NATS: revoked sessions are not watched).
 */
export const loadNatsSettings = (env: Env = process.env): MessagingSettings | undefined => loadOptionalMessagingSettings(env, { name: 'gateway' });
