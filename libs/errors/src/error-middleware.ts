import type { ErrorRequestHandler, RequestHandler } from 'express';
import { AppError } from './app-error';
import { errors } from './errors';
import { normalizeError, toErrorBody } from './envelope';

export interface ErrorLogger {
  error(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

/** The express error handler: the contract's envelope; unknown errors → 500 generic + request id, logged with stack. */
export function errorMiddleware(logger: ErrorLogger): ErrorRequestHandler {
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
    res.status(appError.status).json(toErrorBody(appError, requestId));
  };
}

/** The contract's 404 for unknown routes. */
export const notFoundHandler: RequestHandler = (req, _res, next) => next(errors.routeNotFound(req.path));
