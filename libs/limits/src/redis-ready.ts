import type Redis from 'ioredis';

/**
 * Resolves when the connection is ready. Right after start it may still be opening: wait for it (at most
 * `waitMs`) instead of failing at once. Once Redis has been seen down (an error, or the first attempt settled),
 * reject at once: no added latency while it is away.
 */
export function redisReady(redis: Redis, waitMs: number): () => Promise<void> {
  let settled = false;
  redis.on('error', () => (settled = true));
  redis.once('ready', () => (settled = true));
  return () => {
    if (redis.status === 'ready') return Promise.resolve();
    if (settled) return Promise.reject(new Error(`redis ${redis.status}`));
    return new Promise<void>((resolve, reject) => {
      const done = (err?: Error) => {
        clearTimeout(timer);
        redis.off('ready', onReady);
        redis.off('error', onError);
        if (err) reject(err);
        else resolve();
      };
      const onReady = () => done();
      const onError = (e: Error) => done(new Error(`redis unavailable: ${e.message}`));
      const timer = setTimeout(() => done(new Error(`redis not ready (${redis.status})`)), waitMs);
      timer.unref();
      redis.once('ready', onReady);
      redis.once('error', onError);
    });
  };
}
