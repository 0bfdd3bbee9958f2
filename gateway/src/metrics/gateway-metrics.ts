import type { ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { Counter, Histogram, Registry } from 'prom-client';
import { errors } from '@vellum/errors';
import { routeLabel, serviceFor } from '../proxy/service-routes';

export interface GatewayMetrics {
  registry: Registry;
  /** Records every request's count and latency, labelled by method, route (bounded set) and status. */
  middleware: RequestHandler;
  /** The same record for a request answered outside express (the proxy's front door); `route` as metricsRoute. */
  track(method: string, route: string, res: ServerResponse): void;
  upstreamError(service: string, reason: string): void;
  /** GET /metrics: Prometheus text; `token` set → `Authorization: Bearer <token>` required. */
  handler(token?: string): RequestHandler;
}

const FIXED_ROUTES = ['/graphql/system', '/server/ping', '/server/health', '/server/specs/oas', '/server/specs/graphql/system', '/metrics'];

/** Label for a path: the owning prefix (`/revisions`), a fixed gateway route, or `unmatched` (never the raw path). */
export function metricsRoute(path: string): string {
  if (serviceFor(path)) return routeLabel(path);
  return FIXED_ROUTES.includes(path) ? path : 'unmatched';
}

export function createGatewayMetrics(): GatewayMetrics {
  const registry = new Registry();
  const requests = new Counter({
    name: 'vellum_gateway_http_requests_total',
    help: 'Requests answered by the gateway',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'vellum_gateway_http_request_duration_seconds',
    help: 'Time from request to the end of the response',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const upstreamErrors = new Counter({
    name: 'vellum_gateway_upstream_errors_total',
    help: 'Failed upstream calls (connect refused/timeout, reset, no answer in time)',
    labelNames: ['service', 'reason'] as const,
    registers: [registry],
  });
  const track = (method: string, route: string, res: ServerResponse) => {
    const started = process.hrtime.bigint();
    res.once('close', () => {
      const labels = { method, route, status: String(res.statusCode) };
      requests.inc(labels);
      latency.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
    });
  };
  return {
    registry,
    track,
    middleware: (req, res, next) => {
      track(req.method, metricsRoute(req.path), res);
      next();
    },
    upstreamError: (service, reason) => upstreamErrors.inc({ service, reason }),
    handler: (token) => async (req, res, next) => {
      if (token && req.headers.authorization !== `Bearer ${token}`) return next(errors.forbidden());
      res.setHeader('Content-Type', registry.contentType);
      res.send(await registry.metrics());
    },
  };
}
