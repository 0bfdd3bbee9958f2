import type { HealthCheck } from '@vellum/http';

export interface RateLimitHit {
  /** Hits counted in the current window, this one included. */
  count: number;
  /** When the current window ends (ms since epoch). */
  resetAt: number;
}

/**
 * Fixed-window counters keyed by client. `hit` counts one request; implementations must be atomic so that
 * concurrent gateways (or concurrent requests) never lose a count.
 */
export interface RateLimitStore {
  readonly kind: 'memory' | 'redis';
  hit(key: string, windowMs: number): Promise<RateLimitHit>;
  health(): Promise<HealthCheck>;
  close(): Promise<void>;
}
