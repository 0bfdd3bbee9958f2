import type { Logger } from '@vellum/logger';
import type { HealthProbe } from '@vellum/http';
import { createLimiterStore, requestLimiter, type LimiterStore, type RequestLimit } from '@vellum/limits';
import type { GatewayConfig } from '../config';

interface GatewayRateLimit {
  /** The per-client-IP limiter the express stack and the front door share. */
  limit?: RequestLimit;
  /** The store's health probe, when there is a store. */
  probes: Record<string, HealthProbe>;
  /** Close the store if the gateway created it (not one it was given). */
  close(): Promise<void>;
}

/** The per-IP rate limit when RATE_LIMITER_ENABLED: the given store or one from the config. */
export function gatewayRateLimit(config: GatewayConfig, given: LimiterStore | undefined, logger: Logger): GatewayRateLimit {
  const ownsStore = config.RATE_LIMITER_ENABLED && !given;
  const store = config.RATE_LIMITER_ENABLED ? (given ?? createRateLimitStore(config)) : undefined;
  const probes: Record<string, HealthProbe> = {};
  if (store) probes[`ratelimit:${store.kind}`] = () => store.health();
  const limit = store
    ? requestLimiter({ limiter: store.limiter({ keyPrefix: 'ip', points: config.RATE_LIMITER_POINTS, durationMs: config.RATE_LIMITER_DURATION }), logger })
    : undefined;
  return {
    limit,
    probes,
    async close() {
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
