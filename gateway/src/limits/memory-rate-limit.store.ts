import type { RateLimitHit, RateLimitStore } from './rate-limit-store';

/** One gateway process (the embedded topology): counters in a Map, swept every `sweepMs`. */
export function createMemoryRateLimitStore({ now = Date.now, sweepMs = 10_000 } = {}): RateLimitStore {
  const windows = new Map<string, RateLimitHit>();
  const sweep = setInterval(() => {
    const t = now();
    for (const [k, w] of windows) if (w.resetAt <= t) windows.delete(k);
  }, sweepMs);
  sweep.unref();
  return {
    kind: 'memory',
    async hit(key, windowMs) {
      const t = now();
      let w = windows.get(key);
      if (!w || w.resetAt <= t) {
        w = { count: 0, resetAt: t + windowMs };
        windows.set(key, w);
      }
      w.count++;
      return { ...w };
    },
    async health() {
      return { status: 'ok' };
    },
    async close() {
      clearInterval(sweep);
      windows.clear();
    },
  };
}
