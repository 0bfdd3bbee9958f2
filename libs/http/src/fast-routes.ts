import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Express, NextFunction, Request, RequestHandler, Response, Router } from 'express';
import type { ZodType, output } from 'zod';
import type { Accountability } from './accountability';
import { matchTemplate, templateOf, templatesOverlap, type PathTemplate } from './fast-route-paths';
import { route, type Access, type AsyncHandler, type BodyHandler, type Method, type RouteTable } from './route';

export interface FastRoute {
  handlers: AsyncHandler[];
  /** `req.route` as express sets it for whoever labels by route (its `path`: the route template). */
  route: { path: string };
}
interface TemplateRoute extends FastRoute {
  template: PathTemplate;
}
const FAST = Symbol('fast routes');
const TEMPLATES = Symbol('fast routes with parameters');
type WithFast = Express & { [FAST]?: Map<string, FastRoute>; [TEMPLATES]?: Map<string, TemplateRoute[]> };

/** The fast route registered for exactly this method and path, if any. */
export function fastRouteOf(app: Express, method: string, path: string): FastRoute | undefined {
  return (app as WithFast)[FAST]?.get(`${method} ${path}`);
}

/** The fast route for this method and path, exact or with parameters (`params`: the template's values). */
export function matchFastRoute(app: Express, method: string, path: string): { fast: FastRoute; params: Record<string, string> } | undefined {
  const exact = fastRouteOf(app, method, path);
  if (exact) return { fast: exact, params: {} };
  const templates = (app as WithFast)[TEMPLATES]?.get(method);
  if (!templates) return undefined;
  for (const fast of templates) {
    const params = matchTemplate(fast.template, path);
    if (params) return { fast, params };
  }
  return undefined;
}

/** Runs `handlers` as express would (next(), next(err), rejected promises), then `done`. */
export function run(handlers: AsyncHandler[], req: Request, res: Response, done: NextFunction): void {
  new HandlerRun(handlers as RequestHandler[], req, res, done, true).next();
}

/**
 * One request through `handlers`, then `done` (with the first error). `routeEnds`: `next('route')` ends the run as
 * `done()` (a route's handlers); otherwise it is passed on as it is (middleware). The callbacks are anonymous arrows
 * passed as arguments: a function named in place (`const next = …`) gets tsx's keepNames `defineProperty` each
 * time it is made, here once per request.
 */
export class HandlerRun {
  private i = 0;

  constructor(
    private readonly handlers: RequestHandler[],
    private readonly req: Request,
    private readonly res: Response,
    private readonly done: NextFunction,
    private readonly routeEnds: boolean,
  ) {}

  next(err?: unknown): void {
    if (err === 'route' && this.routeEnds) return this.done(); // the rest of this route skipped: on to the next layers
    if (err !== undefined && err !== null) return this.done(err);
    const h = this.handlers[this.i++];
    if (!h) return this.done();
    try {
      const r = h(this.req, this.res, (e?: unknown) => this.next(e)) as Promise<unknown> | undefined;
      if (r && typeof r.then === 'function') r.then(undefined, (e: unknown) => this.done(e ?? new Error('rejected')));
    } catch (e) {
      this.done(e);
    }
  }
}

/**
 * The fast lane of a service app: requests for an exact method and path registered with `fastRoute` go straight to their
 * handlers from this one middleware (a Map lookup) instead of walking the router stack layer by layer. It sits
 * after the app's common middleware (request id, body parser — and whatever is added there, e.g. metrics or
 * access logs), so those still run for every request; errors go on to the app's error middleware as usual.
 * Routes with parameters are left to the router here (it computes `req.params`); `serviceListener` answers them.
 */
export function fastLane(app: Express): RequestHandler {
  const routes = ((app as WithFast)[FAST] ??= new Map());
  return (req, res, next) => {
    if (routes.size === 0) return next();
    const fast = routes.get(`${req.method} ${req.path}`);
    if (!fast) return next();
    req.route = fast.route;
    run(fast.handlers, req, res, next);
  };
}

/**
 * The request a fast route's handler gets: node's own, with what the lane sets (as express would compute it) and
 * what the common middleware and `before` set. No express helper is on it (`req.get`: read `req.headers`).
 */
export interface LaneRequest<B = unknown> extends IncomingMessage {
  query: unknown;
  body: B;
  params: Record<string, string>;
  ip?: string;
  originalUrl: string;
  /** The route template (what the access log and metrics label by). */
  route?: { path: string };
  accountability?: Accountability;
  requestId?: string;
}

/**
 * A fast route's handler: node's request and response — express's helpers (`res.json`, `res.status`, `req.get`) are
 * a compile error here; answer with `sendJson` / `sendJsonText`, or pass an error to `next`.
 */
export type LaneHandler<B = unknown> = (req: LaneRequest<B>, res: ServerResponse, next: (err?: unknown) => void) => unknown;

export interface FastRouteOptions<S extends ZodType = ZodType> {
  router: Router & Partial<RouteTable>;
  /** Default `get`. */
  method?: Method;
  /** An exact path, or a template of literal and `:name` segments (`req.params`). */
  path: string;
  /** The JSON body's schema, as `route` takes it. */
  body?: S;
  access: Access;
  /** Middleware the route needs before its access rule (authentication), as `route` takes it. */
  before?: RequestHandler[];
  /**
   * The router's own middleware (`router.use`) that runs before this route on the router's path (an
   * authentication every route of the router shares): the lane runs it first too.
   */
  routerBefore?: RequestHandler[];
}

/**
 * `route(router, method, path, access, …handlers)` that the app's fast lane also answers with the very handlers the
 * router registered (access rule included). The router keeps the route for its table and for the requests the lane
 * leaves to it (`HEAD`, a trailing slash, another letter case, an encoded parameter). The path may have `:name`
 * segments (`req.params`); such a route must be the first of its method the router would match (checked here). A listening service runs these handlers on bare
 * node:http (`serviceListener`): they (and `before`) may use node's request/response API and the request's
 * `query`, `ip`, `originalUrl`, `params`, `body` and what earlier middleware set (`accountability`, `requestId`):
 * `LaneHandler`, whose types have no express helper (`res.json`, `req.get`, …): answer with `sendJson`.
 */
export function fastRoute<S extends ZodType>(app: Express, o: FastRouteOptions<S>, ...handlers: LaneHandler<output<S>>[]): void {
  const method = o.method ?? 'get';
  const earlier = o.router.routes?.filter((r) => r.method === method) ?? [];
  // express's request and response are node's with more on them: the same handlers serve the router's path
  const chain = route(o.router, method, o.path, o.access, { body: o.body, before: o.before }, ...(handlers as unknown as BodyHandler<output<S>>[]));
  const lane: FastRoute = { handlers: [...((o.routerBefore ?? []) as AsyncHandler[]), ...chain], route: { path: o.path } };
  const key = method.toUpperCase();
  const template = templateOf(o.path);
  if (!template) {
    ((app as WithFast)[FAST] ??= new Map()).set(`${key} ${o.path}`, lane);
    return;
  }
  // the lane must pick the route express would pick first
  const shadow = earlier.find((r) => templatesOverlap(template, r.path));
  if (shadow) throw new Error(`fast route ${key} ${o.path}: the earlier route ${shadow.path} could answer the same paths`);
  const byMethod = ((app as WithFast)[TEMPLATES] ??= new Map());
  byMethod.set(key, [...(byMethod.get(key) ?? []), { ...lane, template }]);
}
