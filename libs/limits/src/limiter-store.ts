import Redis from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Limiter, LimiterOptions, LimitState } from './limiter';

export type LimiterStoreKind = 'memory' | 'redis';

/** Where the counters live: this process's memory, or Redis (shared by every replica). */
export interface LimiterStore {
  readonly kind: LimiterStoreKind;
  limiter(options: LimiterOptions): Limiter;
  /** `ok`, or why the shared store is unavailable (the limiters then count in memory, per replica). */
  health(): Promise<{ status: 'ok' | 'warn'; reason?: string }>;
  close(): Promise<void>;
}

export interface LimiterStoreOptions {
  /** Redis (e.g. redis://redis:6379): counters shared by every replica. Without it, counters are in memory. */
  redisUrl?: string;
  /** Prefix of every Redis key (tests use a unique one). */
  prefix?: string;
  /** A Redis command slower than this fails over to the in-memory counters (default 250 ms). */
  commandTimeoutMs?: number;
}

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

function stateOf(r: RateLimiterRes | null, points: number): LimitState {
  if (!r) return { consumed: 0, remaining: points, exceeded: false, resetAt: Date.now() };
  return { consumed: r.consumedPoints, remaining: Math.max(0, r.remainingPoints), exceeded: r.consumedPoints > points, resetAt: Date.now() + Math.max(0, r.msBeforeNext) };
}

/** rate-limiter-flexible behind the Limiter interface: an exhausted budget resolves (`exceeded`), it does not reject. */
function wrap(rl: RateLimiterAbstract, points: number): Limiter {
  return {
    points,
    async consume(key, n = 1) {
      try {
        return stateOf(await rl.consume(key, n), points);
      } catch (e) {
        if (e instanceof RateLimiterRes) return stateOf(e, points);
        throw e;
      }
    },
    async peek(key) {
      return stateOf(await rl.get(key), points);
    },
    async reset(key) {
      await rl.delete(key);
    },
  };
}

const memory = (o: LimiterOptions) => new RateLimiterMemory({ keyPrefix: o.keyPrefix, points: o.points, duration: seconds(o.durationMs) });

/**
 * Limiters on rate-limiter-flexible: RateLimiterRedis when `redisUrl` is given (atomic counts shared by every
 * replica), RateLimiterMemory otherwise. A Redis that is down or slow never blocks a request: commands fail at once
 * (no offline queue, `commandTimeoutMs`) and the limiter counts in memory meanwhile (its insurance limiter), so
 * limits still hold per replica.
 */
export function createLimiterStore({ redisUrl, prefix = 'vellum:', commandTimeoutMs = 250 }: LimiterStoreOptions = {}): LimiterStore {
  if (!redisUrl) {
    return {
      kind: 'memory',
      limiter: (o) => wrap(memory(o), o.points),
      health: async () => ({ status: 'ok' }),
      close: async () => undefined,
    };
  }
  const redis = new Redis(redisUrl, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: commandTimeoutMs,
    connectTimeout: 2000,
    retryStrategy: (times) => Math.min(times * 200, 2000),
  });
  redis.on('error', () => undefined); // reported by health(); ioredis reconnects by itself
  return {
    kind: 'redis',
    limiter: (o) =>
      wrap(
        new RateLimiterRedis({
          storeClient: redis,
          rejectIfRedisNotReady: true,
          keyPrefix: `${prefix}${o.keyPrefix}`,
          points: o.points,
          duration: seconds(o.durationMs),
          insuranceLimiter: memory(o),
        }),
        o.points,
      ),
    async health() {
      try {
        await redis.ping();
        return { status: 'ok' };
      } catch (e) {
        return { status: 'warn', reason: `redis unavailable, limits count per replica: ${(e as Error).message}` };
      }
    },
    async close() {
      redis.disconnect(false);
    },
  };
}
