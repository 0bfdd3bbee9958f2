import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { Router, type Express, type RequestHandler } from 'express';
import type { Logger } from '@vellum/logger';
import { errorMiddleware, errors, notFoundHandler } from '@vellum/errors';
import { noConditionalRequests, requestContextMiddleware, runHealthChecks, serverRoutes, type HealthProbe, type HealthReport, type LocalServices } from '@vellum/http';
import type { ApiTokenEntry } from '@vellum/contracts';
import { Registry } from '@vellum/metrics';
import { cachedVerifier, createTokenVerifier, jwksUrl, remoteKeySource, requestClaims, type ApiTokenSource, type TokenVerifier } from '@vellum/tokens';
import type { GatewayConfig } from './config';
import { UpstreamPool } from './proxy/upstream-pool';
import { createProxy, type Proxy } from './proxy/proxy.handler';
import { expressProxy } from './proxy/express-proxy';
import { SERVICE_ROUTES, type ServiceName } from './proxy/service-routes';
import { createFrontDoor } from './front/front-door';
import type { TrustFn } from './front/client-address';
import { tokenCheck } from './auth/token-check.middleware';
import { gatewayHealth } from './health/gateway-health';
import { createFederation, type Federation } from './graphql/federation';
import { readCommittedSupergraph } from './graphql/compose-supergraph';
import { createLimiterStore, rateLimit, requestLimiter, type LimiterStore } from '@vellum/limits';
import { cors, corsPolicy, type CorsOptions } from './limits/cors.middleware';
import { securityHeaderList, securityHeaders } from './limits/security-headers.middleware';
import { createGatewayMetrics } from './metrics/gateway-metrics';
import { buildOpenApi } from './specs/openapi';
import { serverInfoHandler } from './server/server-info';
import { apiReference } from './reference/api-reference';
import { adminApp } from './admin/admin-app';

type ExpressHandle = (req: IncomingMessage, res: ServerResponse, callback?: (err?: unknown) => void) => void;

/** Request bodies above this answer 413 (contract §1). */
export const BODY_LIMIT_BYTES = 1024 * 1024;

export interface GatewayDeps {
  config: GatewayConfig;
  logger: Logger;
  /** Access-token verifier; default: the auth service's JWKS (`${first AUTH_URL}/auth/.well-known/jwks.json`). */
  verifier?: TokenVerifier;
  /** Revoked session ids (session-mode tokens die at once on logout). */
  isSessionRevoked?: (sessionId: string) => boolean;
  /** The API-tokens map (from the auth service's KV bucket): without it API tokens are refused at the gateway. */
  apiTokens?: ApiTokenSource;
  onTokenUse?: (entry: ApiTokenEntry) => void;
  /** The static supergraph; default the committed gateway/src/graphql/supergraph.graphql. */
  supergraphSdl?: string;
  /** Rate-limit counters (when RATE_LIMITER_ENABLED); default from config (memory, or redis with REDIS_URL). */
  rateLimitStore?: LimiterStore;
  /** Extra health probes for the gateway's own dependencies. */
  healthProbes?: Record<string, HealthProbe>;
  /** The process's metrics registry (default: a private one). */
  metrics?: Registry;
  /** The embedded topology: services in this process get their requests handed over without a socket. */
  localServices?: LocalServices;
  /**
   * false: the proxied REST paths go through the express stack (proxy/express-proxy.ts) instead of the front door
   * — the reference pipeline gateway/test/pipelines.test.ts holds the front door to. Default true.
   */
  frontDoor?: boolean;
}

export interface Gateway {
  app: Express;
  pools: Record<ServiceName, UpstreamPool>;
  /** Where the gateway's metrics go (the process registry when given). */
  metrics: Registry;
  /** The cached report (at most one probe fan-out per second). */
  health(): Promise<HealthReport>;
  /** Close connection pools and background work (not the listening socket). */
  close(): Promise<void>;
}

/** The gateway's express app (never listens): limits, token checks, REST proxy, health. */
export async function createGateway(deps: GatewayDeps): Promise<Gateway> {
  const { config, logger } = deps;
  const poolOpts = {
    maxSockets: config.UPSTREAM_MAX_SOCKETS,
    failCooldownMs: config.UPSTREAM_FAIL_COOLDOWN,
    connectTimeoutMs: config.UPSTREAM_CONNECT_TIMEOUT,
    responseTimeoutMs: config.UPSTREAM_RESPONSE_TIMEOUT,
  };
  const pools: Record<ServiceName, UpstreamPool> = {
    auth: new UpstreamPool('auth', config.AUTH_URLS, poolOpts),
    revisions: new UpstreamPool('revisions', config.REVISIONS_URLS, poolOpts),
    items: new UpstreamPool('items', config.ITEMS_URLS, poolOpts),
  };
  const url = config.AUTH_URLS[0] ? jwksUrl(config.AUTH_URLS[0]) : undefined;
  // Verified tokens are remembered until they expire: a client's next requests cost no signature check.
  const verifier = cachedVerifier(
    deps.verifier ??
      createTokenVerifier(
        url
          ? remoteKeySource({ url, timeoutMs: config.UPSTREAM_CONNECT_TIMEOUT + 1000, minRefreshIntervalMs: config.JWKS_MIN_REFRESH_INTERVAL })
          : { get: async () => undefined },
      ),
    { max: config.TOKEN_CACHE_SIZE, apiTokens: deps.apiTokens, onTokenUse: deps.onTokenUse },
  );

  const app = express();
  app.disable('x-powered-by');
  noConditionalRequests(app);
  app.set('trust proxy', config.TRUST_PROXY);
  app.set('query parser', 'extended');
  app.use(requestContextMiddleware('gateway'));
  const metrics = createGatewayMetrics(deps.metrics ?? new Registry(), logger);
  app.use(metrics.middleware);
  const hsts = config.PUBLIC_URL?.startsWith('https:') ?? false;
  app.use(securityHeaders({ hsts }));
  const corsOptions: CorsOptions | undefined = config.CORS_ENABLED
    ? {
      origin: config.CORS_ORIGIN,
      credentials: config.CORS_CREDENTIALS,
      allowedHeaders: config.CORS_ALLOWED_HEADERS,
      exposedHeaders: config.CORS_EXPOSED_HEADERS,
      maxAgeSeconds: config.CORS_MAX_AGE,
    }
    : undefined;
  if (corsOptions) app.use(cors(corsOptions));

  const ownsStore = config.RATE_LIMITER_ENABLED && !deps.rateLimitStore;
  const store = config.RATE_LIMITER_ENABLED ? (deps.rateLimitStore ?? createRateLimitStore(config)) : undefined;
  const ownProbes: Record<string, HealthProbe> = { ...deps.healthProbes };
  if (store) ownProbes[`ratelimit:${store.kind}`] = () => store.health();
  const claimsOf = requestClaims(verifier, { sessionCookieName: config.SESSION_COOKIE_NAME, isSessionRevoked: deps.isSessionRevoked });
  const server = Router();
  // Anonymous callers get the status; admins and HEALTH_TOKEN holders the checks per service and replica.
  const health = serverRoutes(server, gatewayHealth(Object.values(pools), ownProbes, config.HEALTH_TIMEOUT), {
    healthToken: config.HEALTH_TOKEN,
    canSeeDetails: async (req) => (await claimsOf(req))?.admin_access === true,
    ready: () => runHealthChecks(ownProbes, config.HEALTH_TIMEOUT),
  });
  server.get(
    '/server/info',
    serverInfoHandler(
      {
        projectName: config.PROJECT_NAME,
        projectDescriptor: config.PROJECT_DESCRIPTOR,
        projectColor: config.PROJECT_COLOR,
        defaultLanguage: config.DEFAULT_LANGUAGE,
        rateLimit: config.RATE_LIMITER_ENABLED ? { points: config.RATE_LIMITER_POINTS, duration: config.RATE_LIMITER_DURATION } : false,
        queryLimit: { default: config.QUERY_LIMIT_DEFAULT, max: config.QUERY_LIMIT_MAX },
      },
      claimsOf,
    ),
  );
  app.use(server);

  // Everything below is rate limited per client IP; ping and health (probes, load balancers) are not.
  const limit = store
    ? requestLimiter({ limiter: store.limiter({ keyPrefix: 'ip', points: config.RATE_LIMITER_POINTS, durationMs: config.RATE_LIMITER_DURATION }), logger })
    : undefined;
  if (limit) app.use(rateLimit(limit));

  // The proxied REST paths never reach express: the front door below answers them on bare node:http with the
  // same request id, headers, CORS, rate limit (its own counter calls, same store), token pre-check (not on
  // /auth/*: see token-check.middleware.ts), body limit, error envelope and metrics.
  const proxyOpts = {
    connectTimeoutMs: config.UPSTREAM_CONNECT_TIMEOUT,
    responseTimeoutMs: config.UPSTREAM_RESPONSE_TIMEOUT,
    bodyLimit: BODY_LIMIT_BYTES,
    local: deps.localServices,
    onUpstreamError: (service: string, reason: string, replica: string, requestId: string) => {
      metrics.upstreamError(service, reason);
      logger.warn({ service, reason, replica, requestId }, 'upstream call failed');
    },
  };
  const proxies = Object.fromEntries(SERVICE_ROUTES.map(({ service }) => [service, createProxy(pools[service], proxyOpts)])) as Record<ServiceName, Proxy>;
  const frontDoor = createFrontDoor({
    proxies,
    trust: app.get('trust proxy fn') as TrustFn,
    parseQuery: app.get('query parser fn') as (q: string) => Record<string, unknown>,
    verifier,
    sessionCookieName: config.SESSION_COOKIE_NAME,
    isSessionRevoked: deps.isSessionRevoked,
    securityHeaders: securityHeaderList({ hsts }),
    cors: corsOptions ? corsPolicy(corsOptions) : undefined,
    rateLimit: limit,
    metrics,
    logger,
  });

  const useFrontDoor = deps.frontDoor !== false;
  if (!useFrontDoor) {
    const checkToken = tokenCheck({ verifier, sessionCookieName: config.SESSION_COOKIE_NAME, isSessionRevoked: deps.isSessionRevoked });
    app.use(expressProxy({ proxies, trust: app.get('trust proxy fn') as TrustFn, checkToken }));
  }

  const openapi = JSON.stringify(buildOpenApi({ serverUrl: config.PUBLIC_URL }));
  app.get('/server/specs/oas', (_req, res) => {
    res.type('application/json').send(openapi);
  });
  app.use(apiReference());

  const supergraphSdl = deps.supergraphSdl ?? readCommittedSupergraph();
  let federation: Federation | undefined;
  if (supergraphSdl) {
    federation = await createFederation({
      supergraphSdl,
      pools,
      timeoutMs: config.UPSTREAM_RESPONSE_TIMEOUT,
      logger,
      introspection: config.GRAPHQL_INTROSPECTION,
      onUpstreamError: (service, reason) => metrics.upstreamError(service, reason),
    });
  } else {
    logger.warn('no supergraph composed yet (npm run compose -w @vellum/gateway): /graphql/system answers 503');
  }
  const noSupergraph: RequestHandler = (_req, _res, next) => next(errors.serviceUnavailable('graphql', 'no supergraph composed'));
  app.get('/server/specs/graphql/system', (_req, res, next) => {
    if (!federation) return noSupergraph(_req, res, next);
    res.type('text/plain').send(federation.apiSchemaSdl());
  });
  app.use(
    '/graphql/system',
    express.json({ limit: BODY_LIMIT_BYTES, type: ['application/json', 'application/graphql-response+json'] }),
    tokenCheck({ verifier, sessionCookieName: config.SESSION_COOKIE_NAME, isSessionRevoked: deps.isSessionRevoked, checkCookie: false }),
    federation ? federation.handler : noSupergraph,
  );

  app.use(adminApp({ dir: config.ADMIN_APP_DIR }));

  app.use(notFoundHandler);
  app.use(errorMiddleware(logger));

  // Every way of serving the app (app.listen, http.createServer(app), supertest) calls app.handle: the front
  // door takes the proxied paths first, express everything else.
  const expressHandle = (app as unknown as { handle: ExpressHandle }).handle.bind(app);
  (app as unknown as { handle: ExpressHandle }).handle = (req, res, callback) => {
    if (!useFrontDoor || !frontDoor(req, res)) expressHandle(req, res, callback);
  };

  return {
    app,
    pools,
    metrics: metrics.registry,
    health,
    async close() {
      await federation?.stop();
      for (const p of Object.values(pools)) p.close();
      if (ownsStore) await store?.close();
    },
  };
}

/**
 * RATE_LIMITER_STORE, or redis when REDIS_URL is set, else memory (one gateway process). While Redis is down the
 * limit fails open (requests pass, health warns): a shared budget the gateway cannot read is not enforced per
 * replica instead, so a Redis outage never turns into refusing everyone's traffic.
 */
function createRateLimitStore(config: Pick<GatewayConfig, 'RATE_LIMITER_STORE' | 'REDIS_URL'>): LimiterStore {
  const kind = config.RATE_LIMITER_STORE ?? (config.REDIS_URL ? 'redis' : 'memory');
  if (kind === 'redis' && !config.REDIS_URL) throw new Error('RATE_LIMITER_STORE=redis needs REDIS_URL');
  return createLimiterStore({ redisUrl: kind === 'redis' ? config.REDIS_URL : undefined, prefix: 'vellum:ratelimit:', whenRedisDown: 'fail' });
}
