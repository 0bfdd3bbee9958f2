import express, { type Express, type RequestHandler } from 'express';
import { errorMiddleware, notFoundHandler, type ErrorLogger } from '@vellum/errors';
import { requestIdFrom, runWithRequestContext } from '@vellum/logger';
import { startSpan } from '@vellum/tracing';
import { accessLog, routeOf, type AccessLogger, type RequestObserver } from './access-log';

export const BODY_LIMIT = '1mb';

/**
 * Request id from `X-Request-Id` (or generated), echoed in the response and carried in the async context with
 * this hop's traceparent (the caller's trace continued by a span of this service, exported when tracing is on).
 */
export function requestContextMiddleware(service = 'http'): RequestHandler {
  return (req, res, next) => {
    const requestId = requestIdFrom(req.headers['x-request-id']);
    req.headers['x-request-id'] = requestId;
    req.requestId = requestId;
    res.setHeader('X-Request-Id', requestId);
    const span = startSpan(`${req.method} ${service}`, req.headers.traceparent, { 'http.request.method': req.method, 'vellum.service': service, 'vellum.request_id': requestId });
    res.once('close', () => {
      const route = routeOf(req);
      span.end({ 'http.route': route, 'http.response.status_code': res.statusCode }, res.statusCode >= 500);
    });
    runWithRequestContext({ requestId, traceparent: span.traceparent }, () => next());
  };
}

/** The middleware without a service name (kept for callers that only need request ids). */
export const requestIdMiddleware: RequestHandler = requestContextMiddleware();

export interface ServiceAppOptions {
  /** Names the spans of this app. */
  service?: string;
  /** One access-log line per request. */
  logger?: AccessLogger;
  /** Every finished request (metrics). */
  observe?: RequestObserver;
}

/**
 * The common express app of a service: no x-powered-by, request ids and traces, an access log, request metrics,
 * bracket-form query strings (qs), JSON bodies up to 1 MB, and the SEARCH method. Call `finishServiceApp` after
 * the routes.
 */
export function createServiceApp(opts: ServiceAppOptions = {}): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'extended');
  app.set('trust proxy', 'loopback, linklocal, uniquelocal');
  app.use(requestContextMiddleware(opts.service));
  if (opts.logger || opts.observe) app.use(accessLog(opts.logger, opts.observe));
  app.use(express.json({ limit: BODY_LIMIT, type: ['application/json', 'application/*+json'] }));
  return app;
}

/** The contract's 404 for unknown routes and the error envelope. */
export function finishServiceApp(app: Express, logger: ErrorLogger): Express {
  app.use(notFoundHandler);
  app.use(errorMiddleware(logger));
  return app;
}
