import Redis from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Limiter, LimiterOptions, LimitState } from './limiter';
import { redisReady } from './redis-ready';

export type LimiterStoreKind = 'memory' | 'redis';

/** Where the counters live: this process's memory, or Redis (shared by every replica). */
export interface LimiterStore {
  readonly kind: LimiterStoreKind;
  limiter(options: LimiterOptions): Limiter;
  /** `ok`, or why the shared store is unavailable (what the limiters do meanwhile: see `whenRedisDown`). */
  health(): Promise<{ status: 'ok' | 'warn'; reason?: string }>;
  close(): Promise<void>;
}

export interface LimiterStoreOptions {
  /** Redis (e.g. redis://redis:6379): counters shared by every replica. Without it, counters are in memory. */
  redisUrl?: string;
  /** Prefix of every Redis key (tests use a unique one). */
  prefix?: string;
  /** A Redis command slower than this counts as Redis being down (default 250 ms). */
  commandTimeoutMs?: number;
  /**
   * While Redis is down or slow: `memory` (default) counts in this process's memory meanwhile (limits still hold,
   * per replica); `fail` rejects the count at once, so the caller can let the request through (the gateway's
   * per-IP limit fails open rather than refuse everyone's traffic, see `requestLimiter`).
   */
  whenRedisDown?: 'memory' | 'fail';
}

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

function stateOf(r: RateLimiterRes | null, points: number): LimitState {
  if (!r) return { consumed: 0, remaining: points, exceeded: false, resetAt: Date.now() };
  return {
    consumed: r.consumedPoints,
    remaining: Math.max(0, r.remainingPoints),
    exceeded: r.consumedPoints > points,
    resetAt: Date.now() + Math.max(0, r.msBeforeNext),
  };
}

/** rate-limiter-flexible behind the Limiter interface: an exhausted budget resolves (`exceeded`), it does not reject. */
function wrap(rl: RateLimiterAbstract, points: number, ready: () => Promise<void> = async () => undefined): Limiter {
  return {
    points,
    async consume(key, n = 1) {
      await ready();
      try {
        return stateOf(await rl.consume(key, n), points);
      } catch (e) {
        if (e instanceof RateLimiterRes) return stateOf(e, points);
        throw e;
      }
    },
    async peek(key) {
      await ready();
      return stateOf(await rl.get(key), points);
    },
    async reset(key) {
      await ready();
      await rl.delete(key);
    },
  };
}

const memory = (o: LimiterOptions) => new RateLimiterMemory({ keyPrefix: o.keyPrefix, points: o.points, duration: seconds(o.durationMs) });

/**
 * The one limiter of the platform (per-IP request limits at the gateway and auth, auth's failed-login budgets), on
 * rate-limiter-flexible: RateLimiterRedis when `redisUrl` is given (an atomic Lua count per request, shared by every
 * replica), RateLimiterMemory otherwise. Fixed windows from a key's first count, in whole seconds (rounded up).
 * A Redis that is down or slow never blocks a request: commands fail at once (no offline queue,
 * `commandTimeoutMs`); right after start a count waits for the first connection at most `commandTimeoutMs`.
 * Meanwhile the limiters count in memory or fail, as `whenRedisDown` says.
 */
export function createLimiterStore({ redisUrl, prefix = 'vellum:', commandTimeoutMs = 250, whenRedisDown = 'memory' }: LimiterStoreOptions = {}): LimiterStore {
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
  const ready = redisReady(redis, commandTimeoutMs);
  const fallback = whenRedisDown === 'memory';
  let closed = false;
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
          ...(fallback ? { insuranceLimiter: memory(o) } : {}),
        }),
        o.points,
        async () => {
          if (closed) throw new Error('limiter store closed');
          await ready().catch((e) => {
            if (!fallback) throw e; // with the insurance limiter, the count goes to memory instead
          });
        },
      ),
    async health() {
      try {
        await redis.ping();
        return { status: 'ok' };
      } catch (e) {
        const meanwhile = fallback ? 'limits count per replica' : 'limits are not enforced (fail open)';
        return { status: 'warn', reason: `redis unavailable, ${meanwhile}: ${(e as Error).message}` };
      }
    },
    async close() {
      closed = true;
      redis.disconnect(false);
    },
  };
}
