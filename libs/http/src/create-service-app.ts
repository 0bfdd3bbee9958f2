import express, { type Express, type RequestHandler } from 'express';
import type { TrustProxy } from '@vellum/config';
import { errorMiddleware, notFoundHandler, type ErrorLogger, type NodeErrorHandler } from '@vellum/errors';
import { requestIdFrom, runWithRequestContext, type RequestContext } from '@vellum/logger';
import { childTraceparent, startSpan, tracingEnabled } from '@vellum/tracing';
import { compileTrust } from './client-address';
import { accessLog, routeOf, type AccessLogger, type RequestObserver } from './access-log';
import { fastLane, HandlerRun } from './fast-routes';
import { cachedQueryParser } from './query-parser';
import { refuseDeepJson } from './json-depth';

export const BODY_LIMIT = '1mb';

/**
 * The request context while tracing is off: this hop's traceparent (the caller's trace continued by a new span id)
 * is made on first read — by an outgoing call or message — and is the same for every read; a request that calls
 * nobody never makes one.
 */
class LazyTraceContext implements RequestContext {
  private made?: string;

  constructor(
    readonly requestId: string,
    private readonly incoming: string | string[] | undefined,
  ) {}

  get traceparent(): string {
    return (this.made ??= childTraceparent(this.incoming));
  }
}

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
    if (!tracingEnabled()) {
      runWithRequestContext(new LazyTraceContext(requestId, req.headers.traceparent), next);
      return;
    }
    const span = startSpan(`${req.method} ${service}`, req.headers.traceparent, {
      'http.request.method': req.method,
      'vellum.service': service,
      'vellum.request_id': requestId,
    });
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
  /**
   * The service's TRUST_PROXY (`trustProxy()` from @vellum/config): which peers' X-Forwarded-For is believed for
   * `req.ip` (audit records, per-address limits). Default: nobody (the socket address is the client).
   */
  trustProxy?: TrustProxy;
}

/**
 * express answers `If-None-Match: *` (or a matching `If-Modified-Since`) with an empty 304 even without a validator
 * of its own (its freshness check needs none): the request's freshness headers are dropped before any route.
 */
const ignoreFreshnessHeaders: RequestHandler = (req, _res, next) => {
  // deleted only when sent: a `delete` turns the headers object into a slower dictionary for every later read
  const h = req.headers;
  if (h['if-none-match'] !== undefined) delete h['if-none-match'];
  if (h['if-modified-since'] !== undefined) delete h['if-modified-since'];
  next();
};

/**
 * The API's ETag policy (docs/api.md §1), for the gateway and every service alike: no validators and no 304s.
 * express would hash every body (sha1 over a 30 KB page) for an ETag. For an app without createServiceApp's common
 * middleware (which has `ignoreFreshnessHeaders` first).
 */
export function noConditionalRequests(app: Express): void {
  app.disable('etag');
  app.use(ignoreFreshnessHeaders);
}

/**
 * The common express app of a service: no x-powered-by, request ids and traces, an access log, request metrics,
 * bracket-form query strings (qs), JSON bodies up to 1 MB, the SEARCH method, and the fast lane for `fastRoute`s
 * (after the common middleware). Call `finishServiceApp` after the routes.
 * No conditional requests (`noConditionalRequests`).
 */
export function createServiceApp(opts: ServiceAppOptions = {}): Express {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag'); // no ETags, no 304s (noConditionalRequests): ignoreFreshnessHeaders is the first common step
  // qs bracket form, each text parsed once (express 5 parses again on every req.query read)
  app.set('query parser', cachedQueryParser());
  app.set('trust proxy', compileTrust(opts.trustProxy ?? false));
  const common: RequestHandler[] = [ignoreFreshnessHeaders, requestContextMiddleware(opts.service)];
  if (opts.logger || opts.observe) common.push(accessLog(opts.logger, opts.observe));
  common.push(express.json({ limit: BODY_LIMIT, type: ['application/json', 'application/*+json'] }), refuseDeepJson);
  // middleware every request must pass goes above this line: the fast lane answers its routes from here
  (app as WithLane)[COMMON] = [...common];
  common.push(fastLane(app));
  app.use(inSequence(common));
  return app;
}

const COMMON = Symbol('common middleware');
const ERRORS = Symbol('error handler');
type WithLane = Express & { [COMMON]?: RequestHandler[]; [ERRORS]?: NodeErrorHandler };

/** The middleware every request of the app passes before its routes (`createServiceApp`), in order. */
export function commonMiddleware(app: Express): RequestHandler[] {
  return (app as WithLane)[COMMON] ?? [];
}

/** The app's error handler (`finishServiceApp`): the contract's envelope. */
export function errorHandlerOf(app: Express): NodeErrorHandler | undefined {
  return (app as WithLane)[ERRORS];
}

/**
 * Middleware run one after the other as one router layer: what `app.use(a); app.use(b); …` does for middleware
 * mounted at `/` (an error, thrown or passed to next, skips the rest and goes on to the app's error handlers),
 * without the router matching each layer's path and restoring the request between them.
 */
export function inSequence(handlers: RequestHandler[]): RequestHandler {
  return (req, res, next) => new HandlerRun(handlers, req, res, next, false).next();
}

/** The contract's 404 for unknown routes and the error envelope. */
export function finishServiceApp(app: Express, logger: ErrorLogger): Express {
  const onError = errorMiddleware(logger);
  (app as WithLane)[ERRORS] = onError;
  app.use(notFoundHandler);
  app.use(onError);
  return app;
}
