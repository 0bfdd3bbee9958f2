import express, { type Express, type RequestHandler } from 'express';
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

/**
 * The API's ETag policy (docs/api.md §1), for the gateway and every service alike: no validators and no 304s.
 * express would hash every body (sha1 over a 30 KB page) for an ETag, and still answers `If-None-Match: *` with an
 * empty 304 without one (its freshness check needs no validator).
 */
export function noConditionalRequests(app: Express): void {
  app.disable('etag');
  Object.defineProperty(app.request, 'fresh', { configurable: true, get: () => false });
}

/**
 * The common express app of a service: no x-powered-by, request ids, bracket-form query strings (qs),
 * JSON bodies up to 1 MB, and the SEARCH method. Call `finishServiceApp` after the routes.
 * No conditional requests (`noConditionalRequests`).
 */
export function createServiceApp(): Express {
  const app = express();
  app.disable('x-powered-by');
  noConditionalRequests(app);
  app.set('query parser', 'extended');
  app.set('trust proxy', 'loopback, linklocal, uniquelocal');
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
