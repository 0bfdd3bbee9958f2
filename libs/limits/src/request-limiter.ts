import { errors, type AppError } from '@vellum/errors';
import type { Limiter } from './limiter';

export interface RequestLimiterOptions {
  limiter: Limiter;
  logger: { warn(obj: object, msg: string): void };
  /** Don't log "store down" more often than this. */
  warnEveryMs?: number;
}

/** A per-client request budget: resolves to the error to answer (undefined = go ahead). */
export type RequestLimit = (key: string) => Promise<AppError | undefined>;

/**
 * Counts one request of client `key`: past the limiter's `points` per window, resolves to 429 REQUESTS_EXCEEDED
 * (`extensions.limit`, `extensions.reset`, `Retry-After`), else undefined. When the count itself fails (a store
 * that fails while Redis is down), the request goes through (fail open) and a warning is logged at most every
 * `warnEveryMs`. Shared by the express middleware and the gateway's front door.
 */
export function requestLimiter({ limiter, logger, warnEveryMs = 10_000 }: RequestLimiterOptions): RequestLimit {
  let lastWarn = 0;
  return async (key) => {
    let state;
    try {
      state = await limiter.consume(key);
    } catch (e) {
      if (Date.now() - lastWarn > warnEveryMs) {
        lastWarn = Date.now();
        logger.warn({ err: (e as Error).message }, 'rate limit store unavailable: failing open');
      }
      return undefined;
    }
    return state.exceeded ? errors.requestsExceeded(limiter.points, new Date(state.resetAt)) : undefined;
  };
}

/** The request as the middleware reads it (express's; `req.ip` honours `trust proxy`). */
interface ClientRequest {
  ip?: string;
  socket: { remoteAddress?: string };
}

/**
 * Express middleware: one count per request, keyed by the client address (`req.ip`, so X-Forwarded-For counts
 * only through proxies trusted by TRUST_PROXY); past the budget the request ends in the error envelope.
 */
export function rateLimit(limit: RequestLimit) {
  return (req: ClientRequest, _res: unknown, next: (err?: unknown) => void): void => {
    limit(req.ip ?? req.socket.remoteAddress ?? 'unknown').then((refused) => next(refused), next);
  };
}
