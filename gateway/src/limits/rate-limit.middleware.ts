import type { RequestHandler } from 'express';
import { errors, type AppError } from '@vellum/errors';
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
 * Counts one request of client `key`: resolves to a 429 REQUESTS_EXCEEDED error (with Retry-After) past `points`
 * per `durationMs` window, else undefined. If the store fails, the request goes through (fail open) and a warning
 * is logged. Shared by the express middleware and the proxy's front door.
 */
export function rateLimiter({ store, points, durationMs, logger, warnEveryMs = 10_000 }: RateLimitOptions): (key: string) => Promise<AppError | undefined> {
  let lastWarn = 0;
  return async (key) => {
    let hit;
    try {
      hit = await store.hit(key, durationMs);
    } catch (e) {
      if (Date.now() - lastWarn > warnEveryMs) {
        lastWarn = Date.now();
        logger.warn({ err: (e as Error).message, store: store.kind }, 'rate limit store unavailable: failing open');
      }
      return undefined;
    }
    return hit.count > points ? errors.requestsExceeded(points, new Date(hit.resetAt)) : undefined;
  };
}

/** Per client IP (`req.ip`, so X-Forwarded-For counts only through proxies trusted by TRUST_PROXY). */
export function rateLimit(opts: RateLimitOptions): RequestHandler {
  const limit = rateLimiter(opts);
  return async (req, _res, next) => {
    const refused = await limit(req.ip ?? req.socket.remoteAddress ?? 'unknown');
    if (refused) throw refused;
    next();
  };
}
