import type { RequestHandler } from 'express';
import { errors } from '@vellum/errors';

/**
 * Per client IP (req.ip: trusted-proxy aware through express's `trust proxy`), fixed window: `points` requests
 * per `durationMs`, then 429 REQUESTS_EXCEEDED with Retry-After. In memory, per replica (the gateway runs the
 * cross-replica limiter).
 */
export function rateLimiter(points: number, durationMs: number): RequestHandler {
  const windows = new Map<string, { count: number; resetAt: number }>();
  let lastSweep = Date.now();
  return (req, _res, next) => {
    const now = Date.now();
    if (now - lastSweep > durationMs * 10 || windows.size > 100_000) {
      for (const [k, w] of windows) if (w.resetAt <= now) windows.delete(k);
      lastSweep = now;
    }
    const key = req.ip ?? 'unknown';
    let w = windows.get(key);
    if (!w || w.resetAt <= now) {
      w = { count: 0, resetAt: now + durationMs };
      windows.set(key, w);
    }
    w.count++;
    if (w.count > points) return next(errors.requestsExceeded(points, new Date(w.resetAt)));
    next();
  };
}
