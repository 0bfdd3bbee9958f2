import Redis from 'ioredis';
import type { HealthCheck } from '@vellum/http';
import type { RateLimitStore } from './rate-limit-store';

/**
 * Counters shared by every gateway replica, in Redis.
 *
 * Why Redis (and not PostgreSQL or NATS KV): a rate limiter does one read-modify-write per request. Redis does it
 * atomically in one round trip (INCR + PEXPIRE in a Lua script, well under a millisecond) and expires windows by
 * itself. PostgreSQL would turn every request into a row update (WAL traffic, vacuum, row-lock contention on hot
 * keys) on the database the services need for real work. NATS KV has no atomic increment: a compare-and-set
 * loop on the key's revision retries under contention, exactly when the limiter matters. Redis is optional:
 * the embedded topology uses the in-memory store, and if Redis is down the limiter fails open (warns, lets
 * requests through) rather than taking the platform down.
 */
const HIT = `
local c = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if c == 1 or ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {c, ttl}
`;

export interface RedisRateLimitStoreOptions {
  url: string;
  prefix?: string;
  /** A command slower than this counts as a failure (fail open). */
  commandTimeoutMs?: number;
}

export function createRedisRateLimitStore({ url, prefix = 'vellum:ratelimit:', commandTimeoutMs = 250 }: RedisRateLimitStoreOptions): RateLimitStore {
  const redis = new Redis(url, {
    // Never queue commands while disconnected: fail at once, so the limiter fails open without delay.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: commandTimeoutMs,
    connectTimeout: 2000,
    retryStrategy: (times) => Math.min(times * 200, 2000),
    lazyConnect: false,
  });
  /** Set once the first connection attempt has succeeded or failed. */
  let settled = false;
  redis.on('error', () => {
    settled = true; // reported by hit()/health(); ioredis reconnects by itself
  });
  redis.once('ready', () => (settled = true));
  redis.defineCommand('vellumHit', { numberOfKeys: 1, lua: HIT });
  let closed = false;
  /**
   * Right after start the connection may still be opening: wait for it briefly instead of failing open. Once
   * Redis has been seen down, fail at once (no added latency while it is away).
   */
  const ready = () =>
    redis.status === 'ready'
      ? Promise.resolve()
      : settled
        ? Promise.reject(new Error(`redis ${redis.status}`))
        : new Promise<void>((resolve, reject) => {
          const timer = setTimeout(() => {
            redis.off('ready', onReady);
            reject(new Error(`redis not ready (${redis.status})`));
          }, commandTimeoutMs);
          const onReady = () => {
            clearTimeout(timer);
            resolve();
          };
          redis.once('ready', onReady);
        });
  return {
    kind: 'redis',
    async hit(key, windowMs) {
      if (closed) throw new Error('store closed');
      await ready();
      const [count, ttl] = (await (redis as unknown as { vellumHit(k: string, ms: number): Promise<[number, number]> }).vellumHit(
        prefix + key,
        windowMs,
      )) as [number, number];
      return { count, resetAt: Date.now() + ttl };
    },
    async health(): Promise<HealthCheck> {
      try {
        await redis.ping();
        return { status: 'ok' };
      } catch (e) {
        return { status: 'warn', reason: `redis unavailable, rate limiting fails open: ${(e as Error).message}` };
      }
    },
    async close() {
      closed = true;
      redis.disconnect(false);
    },
  };
}
