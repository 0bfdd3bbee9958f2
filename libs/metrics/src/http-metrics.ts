import type { Registry } from 'prom-client';
import { singleMetric } from './registry';
import { TallyHistogram, type Tally } from './tally-histogram';

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
      new TallyHistogram(
        'vellum_http_request_duration_seconds',
        'Time from request to the end of the response, by service, method, route template and status',
        ['service', 'method', 'route', 'status'],
        HTTP_DURATION_BUCKETS,
        registry,
      ),
  );
  // the tallies of each label set, found once per set: a request only adds to numbers
  const bound = new Map<string, Tally>();
  return {
    observe: (method, route, status, seconds) => {
      const key = `${method} ${status} ${route}`;
      let tally = bound.get(key);
      if (!tally) {
        // route templates and methods are finite; the map is bounded anyway
        if (bound.size >= 10_000) bound.clear();
        tally = histogram.series({ service, method, route, status: String(status) });
        bound.set(key, tally);
      }
      tally.observe(seconds);
    },
  };
}
