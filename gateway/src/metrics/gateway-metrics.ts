import type { ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { logAccess, type AccessLogger } from '@vellum/http';
import { Counter, httpMetrics, singleMetric, type Registry } from '@vellum/metrics';
import type { ActiveSpan } from '@vellum/tracing';
import { routeLabel, serviceFor } from '../proxy/service-routes';

/** What the gateway learnt about a request while answering it (the access log's user id). */
const USER = Symbol('vellum.user');
type Tagged = ServerResponse & { [USER]?: string };

/** Remember who the request was from (after its token was verified): the access log names the user. */
export const tagUser = (res: ServerResponse, userId: string): void => void ((res as Tagged)[USER] = userId);

export interface GatewayMetrics {
  registry: Registry;
  /** Times, counts and logs every request answered by express, by fixed route (never the raw path). */
  middleware: RequestHandler;
  /**
   * The same for a request answered outside express (the proxy's front door); `route` as metricsRoute. Ends
   * `span` (tracing) with the status.
   */
  track(method: string, route: string, res: ServerResponse, requestId: string, span?: ActiveSpan): void;
  upstreamError(service: string, reason: string): void;
  /** A POSTed GraphQL operation answered by one subgraph fetch (`single_fetch`) or through Apollo Gateway (`planned`). */
  graphqlOperation(path: 'single_fetch' | 'planned'): void;
}

const FIXED_ROUTES = [
  '/graphql/system',
  '/server/ping',
  '/server/ready',
  '/server/health',
  '/server/info',
  '/server/specs/oas',
  '/server/specs/graphql/system',
];

/** Label for a path: the owning prefix (`/revisions`), a fixed gateway route, or `unmatched` (never the raw path). */
function metricsRoute(path: string): string {
  if (serviceFor(path)) return routeLabel(path);
  if (path === '/reference' || path.startsWith('/reference/')) return '/reference';
  return FIXED_ROUTES.includes(path) ? path : 'unmatched';
}

/**
 * `vellum_http_request_duration_seconds{service="gateway",…}` (its `_count` counts requests) and
 * `vellum_gateway_upstream_errors_total{service,reason}`, `vellum_gateway_graphql_operations_total{path}`, plus one access-log line per request.
 */
export function createGatewayMetrics(registry: Registry, logger?: AccessLogger): GatewayMetrics {
  const http = httpMetrics(registry, 'gateway');
  const upstreamErrors = singleMetric(
    registry,
    'vellum_gateway_upstream_errors_total',
    () =>
      new Counter({
        name: 'vellum_gateway_upstream_errors_total',
        help: 'Failed upstream calls (connect refused/timeout, reset, no answer in time)',
        labelNames: ['service', 'reason'] as const,
        registers: [registry],
      }),
  );
  const operations = singleMetric(
    registry,
    'vellum_gateway_graphql_operations_total',
    () =>
      new Counter({
        name: 'vellum_gateway_graphql_operations_total',
        help: 'POSTed GraphQL operations by path: single_fetch (straight to one subgraph) or planned (Apollo Gateway)',
        labelNames: ['path'] as const,
        registers: [registry],
      }),
  );
  const track = (method: string, route: string, res: ServerResponse, requestId: string, span?: ActiveSpan) => {
    const started = process.hrtime.bigint();
    res.once('close', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const status = res.writableFinished ? res.statusCode : 499;
      http.observe(method, route, status, seconds);
      span?.end({ 'http.route': route, 'http.response.status_code': status }, status >= 500);
      if (logger && logger.isLevelEnabled?.('info') !== false)
        logAccess(logger, { method, route, status, ms: seconds * 1000, requestId, userId: (res as Tagged)[USER] ?? null });
    });
  };
  return {
    registry,
    track,
    middleware: (req, res, next) => {
      track(req.method, metricsRoute(req.path), res, req.requestId ?? '');
      next();
    },
    upstreamError: (service, reason) => upstreamErrors.inc({ service, reason }),
    graphqlOperation: (path) => operations.inc({ path }),
  };
}
