import type { RequestHandler } from 'express';
import { errors } from '@vellum/errors';
import type { Logger } from '@vellum/logger';
import type { RateLimitStore } from './rate-limit-store';

export interface RateLimitOptions {
  store: RateLimitStore;
  points: number;
  durationMs: number;
  logger: Logger;
  /** Don't log "store down" more often than this. */
  warnEveryMs?: number;
}

/**
 * Per client IP (`req.ip`, so X-Forwarded-For counts only through proxies trusted by TRUST_PROXY): at most
 * `points` requests per `durationMs` window → 429 REQUESTS_EXCEEDED with Retry-After. If the store fails, the
 * request goes through (fail open) and a warning is logged.
 */
export function rateLimit({ store, points, durationMs, logger, warnEveryMs = 10_000 }: RateLimitOptions): RequestHandler {
  let lastWarn = 0;
  return async (req, _res, next) => {
    const key = req.ip ?? req.socket.remoteAddress ?? 'unknown';
    let hit;
    try {
      hit = await store.hit(key, durationMs);
    } catch (e) {
      if (Date.now() - lastWarn > warnEveryMs) {
        lastWarn = Date.now();
        logger.warn({ err: (e as Error).message, store: store.kind }, 'rate limit store unavailable: failing open');
      }
      return next();
    }
    if (hit.count > points) throw errors.requestsExceeded(points, new Date(hit.resetAt));
    next();
  };
}
