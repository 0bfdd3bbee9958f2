import { IncomingMessage, type ServerResponse } from 'node:http';
import type { Express, Request, Response } from 'express';
import type { TrustProxy } from '@vellum/config';
import { compileTrust, memoisePeerTrust, clientIp, type TrustFn } from './client-address';
import { commonMiddleware, errorHandlerOf, inSequence } from './create-service-app';
import { matchFastRoute, run, type FastRoute } from './fast-routes';
import type { RequestListener } from './local-services';
import { cachedQueryParser, type QueryParser } from './query-parser';

/** What the lane's handlers read from express's request, given as the request's own fields (in this order). */
interface LaneRequest extends IncomingMessage {
  query: unknown;
  ip: string | undefined;
  route: unknown;
  baseUrl: string;
  originalUrl: string;
  params: Record<string, string>;
}

/**
 * The request listener a service listens with (`listen`) and offers to an in-process gateway: requests for a
 * `fastRoute` (the hot reads and the items' routes) run on bare node:http — the app's common middleware
 * (`createServiceApp`: request id and context, access log and metrics, JSON body) and then the route's handlers
 * (its access rule first), with the request and response as node made them. express would first swap both
 * objects' prototypes (which alone costs more than the rest of its work: every node internal that touches them
 * then sees a second shape) and walk its router. The handlers get what they read from express as the request's
 * own fields, computed as express computes them: `query` (the app's query parser), `ip` (its `trust proxy`),
 * `route`, `baseUrl`, `originalUrl`, `params`. An error — thrown, rejected or passed to next — goes to the app's
 * error handler (the contract's envelope, written with node's API), as on the express path.
 * Every other request (other paths and methods, HEAD, a trailing slash) goes to express, which also still answers
 * the fast routes itself for callers that use the app directly (tests with supertest).
 */
export function serviceListener(app: Express): RequestListener {
  const common = inSequence(commonMiddleware(app));
  // the parser the app was given (`app.set('query parser', fn)`: createServiceApp's cached one)
  const parser = app.get('query parser') as QueryParser | string | undefined;
  const parseQuery = typeof parser === 'function' ? parser : cachedQueryParser();
  // the function createServiceApp gave as `trust proxy` (compileTrust), or the setting's value compiled alike
  const setting = app.get('trust proxy') as TrustFn | TrustProxy | undefined;
  const trust = memoisePeerTrust(typeof setting === 'function' ? setting : compileTrust(setting ?? false));
  const onError = errorHandlerOf(app);
  return (req, res) => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const match = onError && req.method ? matchFastRoute(app, req.method, q === -1 ? url : url.slice(0, q)) : undefined;
    // a request another express app already holds (an in-process gateway's own routes) stays on express's path
    if (!match || !onError || Object.getPrototypeOf(req) !== IncomingMessage.prototype) return app(req, res);
    const { fast, params } = match;
    const r = req as LaneRequest;
    r.query = parseQuery(q === -1 ? '' : url.slice(q + 1));
    r.ip = clientIp(req, trust);
    r.route = fast.route;
    r.baseUrl = '';
    r.originalUrl = url;
    r.params = params;
    new LaneCall(app, fast, r, res, onError).start(common);
  };
}

/** One request in the lane: its common middleware, then its route's handlers; an error to the app's handler. */
class LaneCall {
  constructor(
    private readonly app: Express,
    private readonly fast: FastRoute,
    private readonly req: LaneRequest,
    private readonly res: ServerResponse,
    private readonly onError: NonNullable<ReturnType<typeof errorHandlerOf>>,
  ) {}

  start(common: ReturnType<typeof inSequence>): void {
    try {
      // callbacks as anonymous arrows: a named one (a class field) gets tsx's keepNames defineProperty per request
      common(this.req as unknown as Request, this.res as Response, (err?: unknown) => this.afterCommon(err));
    } catch (e) {
      this.fail(e);
    }
  }

  private afterCommon(err?: unknown): void {
    if (err !== undefined && err !== null) return this.fail(err);
    run(this.fast.handlers, this.req as unknown as Request, this.res as Response, (e?: unknown) => this.done(e));
  }

  private done(err?: unknown): void {
    if (err !== undefined && err !== null && err !== 'route') return this.fail(err);
    // a handler that passed the request on without answering: express takes it from here, as the router would
    if (!this.res.headersSent && !this.res.writableEnded) this.app(this.req, this.res);
  }

  /** The app's error handler (the contract's envelope). */
  private fail(err: unknown): void {
    const finish = (e?: unknown) => {
      if (e !== undefined && !this.res.headersSent) this.res.writeHead(500).end();
      else this.res.end();
    };
    try {
      this.onError(err, this.req, this.res, finish);
    } catch (e) {
      this.res.destroy(e instanceof Error ? e : undefined);
    }
  }
}
