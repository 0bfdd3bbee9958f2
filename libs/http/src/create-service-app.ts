import express, { type Express, type RequestHandler } from 'express';
import type { TrustProxy } from '@vellum/config';
import { errorMiddleware, notFoundHandler, type ErrorLogger } from '@vellum/errors';
import { requestIdFrom, runWithRequestContext } from '@vellum/logger';

export const BODY_LIMIT = '1mb';

/** Request id from `X-Request-Id` (or generated), echoed in the response and carried in the async context. */
export const requestIdMiddleware: RequestHandler = (req, res, next) => {
  const requestId = requestIdFrom(req.headers['x-request-id']);
  req.headers['x-request-id'] = requestId;
  req.requestId = requestId;
  res.setHeader('X-Request-Id', requestId);
  const traceparent = typeof req.headers.traceparent === 'string' ? req.headers.traceparent : undefined;
  runWithRequestContext({ requestId, traceparent }, () => next());
};

export interface ServiceAppOptions {
  /**
   * The service's TRUST_PROXY (`trustProxy()` from @vellum/config): which peers' X-Forwarded-For is believed for
   * `req.ip` (audit records, per-address limits). Default: nobody (the socket address is the client).
   */
  trustProxy?: TrustProxy;
}

/**
 * The common express app of a service: no x-powered-by, request ids, bracket-form query strings (qs),
 * JSON bodies up to 1 MB, and the SEARCH method. Call `finishServiceApp` after the routes.
 */
export function createServiceApp(options: ServiceAppOptions = {}): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'extended');
  app.set('trust proxy', options.trustProxy ?? false);
  app.use(requestIdMiddleware);
  app.use(express.json({ limit: BODY_LIMIT, type: ['application/json', 'application/*+json'] }));
  return app;
}

/** The contract's 404 for unknown routes and the error envelope. */
export function finishServiceApp(app: Express, logger: ErrorLogger): Express {
  app.use(notFoundHandler);
  app.use(errorMiddleware(logger));
  return app;
}
