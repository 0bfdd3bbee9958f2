import type { GatewayConfig } from '../config';
import { createMemoryRateLimitStore } from './memory-rate-limit.store';
import { createRedisRateLimitStore } from './redis-rate-limit.store';
import type { RateLimitStore } from './rate-limit-store';

/** RATE_LIMITER_STORE, or redis when REDIS_URL is set, else memory (one gateway process). */
export function createRateLimitStore(config: Pick<GatewayConfig, 'RATE_LIMITER_STORE' | 'REDIS_URL'>): RateLimitStore {
  const kind = config.RATE_LIMITER_STORE ?? (config.REDIS_URL ? 'redis' : 'memory');
  if (kind === 'redis') {
    if (!config.REDIS_URL) throw new Error('RATE_LIMITER_STORE=redis needs REDIS_URL');
    return createRedisRateLimitStore({ url: config.REDIS_URL });
  }
  return createMemoryRateLimitStore();
}
