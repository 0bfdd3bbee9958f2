import type { RequestHandler } from 'express';

export interface AccessLogger {
  info(obj: object, msg?: string): void;
  /** pino's: lets the access log skip building a line its level drops. */
  isLevelEnabled?(level: string): boolean;
}

export interface AccessLogLine {
  method: string;
  route: string;
  status: number;
  /** Milliseconds, to 0.1. */
  ms: number;
  requestId?: string;
  userId?: string | null;
}

/** Writes the one access-log line of a request: never the URL's query, headers, body or token. */
export function logAccess(logger: AccessLogger, line: AccessLogLine): void {
  logger.info({ ...line, ms: Math.round(line.ms * 10) / 10 }, 'request');
}

/** Route template express matched, `unmatched` for 404s and answers given before routing. */
export function routeOf(req: { baseUrl?: string; route?: { path?: unknown } }): string {
  const p = req.route?.path;
  return typeof p === 'string' ? `${req.baseUrl ?? ''}${p}` || '/' : 'unmatched';
}

export interface RequestObserver {
  /** Called once per finished request with its route template, status and duration. */
  (method: string, route: string, status: number, seconds: number): void;
}

/**
 * One access-log line per request (method, route template, status, duration, request id, user id) and the
 * same facts to `observe` (metrics, traces). Written when the response finished or the client went away.
 */
export function accessLog(logger: AccessLogger | undefined, observe?: RequestObserver): RequestHandler {
  return (req, res, next) => {
    const started = performance.now();
    res.once('close', () => {
      const seconds = (performance.now() - started) / 1000;
      const route = routeOf(req);
      const status = res.writableFinished ? res.statusCode : 499;
      observe?.(req.method, route, status, seconds);
      if (logger && logger.isLevelEnabled?.('info') !== false)
        logAccess(logger, { method: req.method, route, status, ms: seconds * 1000, requestId: req.requestId, userId: req.accountability?.user ?? null });
    });
    next();
  };
}
