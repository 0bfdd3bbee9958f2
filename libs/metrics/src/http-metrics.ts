import { Histogram, type Registry } from 'prom-client';
import { singleMetric } from './registry';

export const HTTP_DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export interface HttpMetrics {
  /** One finished request: method, route template (never the raw path), status, seconds. */
  observe(method: string, route: string, status: number, seconds: number): void;
}

/** `vellum_http_request_duration_seconds{service,method,route,status}` (its `_count` is the request counter). */
export function httpMetrics(registry: Registry, service: string): HttpMetrics {
  const histogram = singleMetric(
    registry,
    'vellum_http_request_duration_seconds',
    () =>
      new Histogram({
        name: 'vellum_http_request_duration_seconds',
        help: 'Time from request to the end of the response, by service, method, route template and status',
        labelNames: ['service', 'method', 'route', 'status'] as const,
        buckets: HTTP_DURATION_BUCKETS,
        registers: [registry],
      }),
  );
  // the child of each label set, bound once: prom-client otherwise hashes a fresh labels object per observation
  const bound = new Map<string, { observe(seconds: number): void }>();
  return {
    observe: (method, route, status, seconds) => {
      const key = `${method} ${status} ${route}`;
      let child = bound.get(key);
      if (!child) {
        // route templates and methods are finite; the map is bounded anyway, as prom-client's own label sets are not
        if (bound.size >= 10_000) bound.clear();
        child = histogram.labels({ service, method, route, status: String(status) });
        bound.set(key, child);
      }
      child.observe(seconds);
    },
  };
}
