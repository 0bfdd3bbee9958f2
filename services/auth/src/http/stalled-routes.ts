import type { ErrorRequestHandler, Express, RequestHandler } from 'express';
import { stallUntil } from '../domain/stall';

/** The routes whose every outcome takes at least LOGIN_STALL_TIME (contract §3): nothing to learn from timing. */
export const STALLED_PATHS = ['/auth/login', '/auth/password/request'];

const STARTED = Symbol('stall started');
type Marked = { [STARTED]?: number };

/**
 * Every outcome of POST on STALLED_PATHS takes at least `ms`, the errors raised before the use case too: a
 * malformed or invalid body, a refused rate limit. `markStart` goes before the routes (right after the body
 * parser), `stallErrors` after them: an error waits out the rest of the time from the request's start (from now,
 * when it was raised before the mark: the body parser), then goes on to the error envelope. The use cases stall
 * their own outcomes, so a success or a use-case error has no time left to wait here.
 */
export function stalledRoutes(app: Express, ms: number): { after(): void } {
  const markStart: RequestHandler = (req, _res, next) => {
    if (req.method === 'POST') (req as Marked)[STARTED] = performance.now();
    next();
  };
  const stallErrors: ErrorRequestHandler = (err, req, _res, next) => {
    if (req.method !== 'POST') return next(err);
    stallUntil((req as Marked)[STARTED] ?? performance.now(), ms).then(() => next(err), next);
  };
  app.use(STALLED_PATHS, markStart);
  return { after: () => app.use(STALLED_PATHS, stallErrors) };
}
