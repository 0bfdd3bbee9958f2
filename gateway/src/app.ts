import express, { type Express } from 'express';
import type { Logger } from '@vellum/logger';
import { errorMiddleware, notFoundHandler } from '@vellum/errors';
import {
  cachedQueryParser,
  compileTrust,
  noConditionalRequests,
  requestContextMiddleware,
  type HealthProbe,
  type HealthReport,
  type LocalServices,
  type RequestListener,
} from '@vellum/http';
import type { ApiTokenEntry } from '@vellum/contracts';
import { Registry } from '@vellum/metrics';
import { requestClaims, type ApiTokenSource, type CachedVerifier, type TokenVerifier } from '@vellum/tokens';
import { rateLimit, type LimiterStore, type RequestLimit } from '@vellum/limits';
import type { GatewayConfig } from './config';
import type { UpstreamPool } from './proxy/upstream-pool';
import { fetchCollections, withCollections } from './specs/collection-paths';
import { createUpstreamPools } from './proxy/upstream-pools';
import { createProxy, type Proxy } from './proxy/proxy.handler';
import { EventStreams } from './proxy/event-streams';
import { SERVICE_ROUTES, type ServiceName } from './proxy/service-routes';
import { createFrontDoor } from './front/front-door';
import type { TrustFn } from '@vellum/http';
import { gatewayVerifier } from './auth/gateway-verifier';
import { federationRoutes, graphqlBody } from './graphql/federation-routes';
import type { Federation } from './graphql/federation';
import { GraphQLDoor } from './front/graphql-door';
import { gatewayRateLimit } from './limits/gateway-rate-limit';
import { cors, corsPolicy, type CorsOptions } from './limits/cors.middleware';
import { corsOptionsOf } from './limits/cors-options';
import { securityHeaderList, securityHeaders } from './limits/security-headers.middleware';
import { createGatewayMetrics, type GatewayMetrics } from './metrics/gateway-metrics';
import { buildOpenApi } from './specs/openapi';
import { serverRouter } from './server/server-router';
import { apiReference } from './reference/api-reference';
import { adminApp } from './admin/admin-app';

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
   * false: every GraphQL operation through Apollo Gateway's plan execution, none straight to one subgraph
   * (graphql/single-fetch-path.ts) — the reference the single-fetch path is tested against. Default true.
   */
  graphqlSingleFetch?: boolean;
}

export interface Gateway {
  /**
   * The gateway's one way in (what it listens with, what its tests send to): the front door answers the proxied
   * REST paths and POST /graphql/system, the express app everything else.
   */
  listener: RequestListener;
  /** The express app alone: health, specs, the admin app, GraphQL's other requests (not the front door's paths). */
  app: Express;
  pools: Record<ServiceName, UpstreamPool>;
  /** Where the gateway's metrics go (the process registry when given). */
  metrics: Registry;
  /** The cached report (at most one probe fan-out per second). */
  health(): Promise<HealthReport>;
  /** The server-sent event streams passing through (cut when the gateway stops). */
  eventStreams: EventStreams;
  /** Close connection pools and background work (not the listening socket). */
  close(): Promise<void>;
}

/** The gateway's express app (never listens): limits, token checks, REST proxy, health. */
export async function createGateway(deps: GatewayDeps): Promise<Gateway> {
  const { config, logger } = deps;
  const pools = createUpstreamPools(config);
  const verifier = gatewayVerifier(config, deps);
  const app = baseApp(config);
  const metrics = createGatewayMetrics(deps.metrics ?? new Registry(), logger);
  app.use(metrics.middleware);
  const hsts = config.PUBLIC_URL?.startsWith('https:') ?? false;
  app.use(securityHeaders({ hsts }));
  const corsOptions = corsOptionsOf(config);
  if (corsOptions) app.use(cors(corsOptions));

  const limits = gatewayRateLimit(config, deps.rateLimitStore, logger);
  const claimsOf = requestClaims(verifier, { sessionCookieName: config.SESSION_COOKIE_NAME, isSessionRevoked: deps.isSessionRevoked });
  const server = serverRouter({ config, pools: Object.values(pools), probes: { ...deps.healthProbes, ...limits.probes }, claimsOf });
  app.use(server.router);
  // Everything below is rate limited per client IP; ping and health (probes, load balancers) are not.
  if (limits.limit) app.use(rateLimit(limits.limit));

  const proxies = createProxies(deps, pools, metrics);

  specRoutes(app, config, pools.items);
  const federation = await federationRoutes(app, {
    ...deps,
    pools,
    verifier,
    bodyLimit: BODY_LIMIT_BYTES,
    onUpstreamError: (service, reason) => metrics.upstreamError(service, reason),
    onOperation: (path) => metrics.graphqlOperation(path),
  });
  app.use(adminApp({ dir: config.ADMIN_APP_DIR }));
  app.use(notFoundHandler);
  app.use(errorMiddleware(logger));
  const graphql = federation && graphqlDoor(app, deps, federation, verifier);
  const frontDoor = gatewayFrontDoor(app, deps, { proxies, verifier, hsts, corsOptions, limit: limits.limit, metrics, graphql });

  const eventStreams = new EventStreams();
  return {
    listener: (req, res) => {
      eventStreams.track(req, res);
      if (!frontDoor(req, res)) app(req, res);
    },
    eventStreams,
    app,
    pools,
    metrics: metrics.registry,
    health: server.health,
    async close() {
      await federation?.stop();
      for (const p of Object.values(pools)) p.close();
      await limits.close();
    },
  };
}

/** The express app every gateway request starts in: request id, trust proxy, the extended query parser. */
function baseApp(config: GatewayConfig): Express {
  const app = express();
  app.disable('x-powered-by');
  noConditionalRequests(app);
  app.set('trust proxy', compileTrust(config.TRUST_PROXY));
  app.set('query parser', cachedQueryParser());
  app.use(requestContextMiddleware('gateway'));
  return app;
}

/** One REST proxy per service over its pool (upstream errors counted and logged). */
function createProxies(deps: GatewayDeps, pools: Record<ServiceName, UpstreamPool>, metrics: GatewayMetrics): Record<ServiceName, Proxy> {
  const { config, logger } = deps;
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
  return Object.fromEntries(SERVICE_ROUTES.map(({ service }) => [service, createProxy(pools[service], proxyOpts)])) as Record<ServiceName, Proxy>;
}

interface FrontDoorParts {
  proxies: Record<ServiceName, Proxy>;
  verifier: CachedVerifier;
  hsts: boolean;
  corsOptions?: CorsOptions;
  limit?: RequestLimit;
  metrics: GatewayMetrics;
  graphql?: GraphQLDoor;
}

/**
 * The proxied REST paths never reach express: the front door answers them on bare node:http with the same request
 * id, headers, CORS, rate limit (its own counter calls, same store), token pre-check (not on /auth/*: see
 * token-check.middleware.ts), body limit, error envelope and metrics.
 */
function gatewayFrontDoor(app: Express, deps: GatewayDeps, p: FrontDoorParts): ReturnType<typeof createFrontDoor> {
  return createFrontDoor({
    proxies: p.proxies,
    trust: app.get('trust proxy') as TrustFn,
    parseQuery: app.get('query parser') as (q: string) => Record<string, unknown>,
    verifier: p.verifier,
    sessionCookieName: deps.config.SESSION_COOKIE_NAME,
    isSessionRevoked: deps.isSessionRevoked,
    securityHeaders: securityHeaderList({ hsts: p.hsts }),
    cors: p.corsOptions ? corsPolicy(p.corsOptions) : undefined,
    rateLimit: p.limit,
    metrics: p.metrics,
    logger: deps.logger,
    graphql: p.graphql,
  });
}

/** POST /graphql/system in the front door: the steps the express stack mounts there (federation-routes.ts). */
function graphqlDoor(app: Express, deps: GatewayDeps, federation: Federation, verifier: CachedVerifier): GraphQLDoor {
  return new GraphQLDoor({
    parts: federation.parts,
    body: graphqlBody(BODY_LIMIT_BYTES),
    bodyLimit: BODY_LIMIT_BYTES,
    verifier,
    sessionCookieName: deps.config.SESSION_COOKIE_NAME,
    isSessionRevoked: deps.isSessionRevoked,
    logger: deps.logger,
  });
}

/** The OpenAPI document (the API's own part built once, the collections the caller may read added per request) and the API reference pages. */
function specRoutes(app: Express, config: GatewayConfig, items: UpstreamPool): void {
  const base = buildOpenApi({ serverUrl: config.PUBLIC_URL });
  app.get('/server/specs/oas', async (req, res) => {
    const collections = await fetchCollections(items, { authorization: req.get('authorization'), cookie: req.get('cookie') });
    res.type('application/json').send(JSON.stringify(withCollections(base, collections)));
  });
  app.use(apiReference());
}
