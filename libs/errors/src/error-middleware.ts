import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { AppError } from './app-error';
import { errors } from './errors';
import { normalizeError, toErrorBody } from './envelope';

export interface ErrorLogger {
  error(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

/** An error handler on node's request and response: express's error middleware, and the fast lane's. */
export type NodeErrorHandler = (err: unknown, req: IncomingMessage & { originalUrl?: string }, res: ServerResponse, next: (err?: unknown) => void) => void;

/**
 * The error handler: the contract's envelope; unknown errors → 500 generic + request id, logged with stack. Written
 * with node's response API (express's `res.json` would add nothing: no ETag in this API), so the fast lane's
 * requests get it as they are.
 */
export function errorMiddleware(logger: ErrorLogger): NodeErrorHandler {
  return (err, req, res, _next) => {
    const appError = normalizeError(err);
    const requestId = (req.headers['x-request-id'] as string | undefined) ?? (res.getHeader('x-request-id') as string | undefined);
    if (appError.code === 'INTERNAL_SERVER_ERROR' && !(err instanceof AppError)) {
      logger.error({ err, requestId, method: req.method, url: req.originalUrl }, 'unhandled error');
    } else if (appError.status >= 500) {
      logger.warn({ code: appError.code, extensions: appError.extensions, requestId }, appError.message);
    }
    if (res.headersSent) {
      res.end();
      return;
    }
    for (const [k, v] of Object.entries(appError.headers)) res.setHeader(k, v);
    res.statusCode = appError.status;
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.end(JSON.stringify(toErrorBody(appError, requestId)));
  };
}

/** The contract's 404 for unknown routes. */
export const notFoundHandler: RequestHandler = (req, _res, next) => next(errors.routeNotFound(req.path));
