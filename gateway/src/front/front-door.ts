import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request } from 'express';
import { errors, type AppError } from '@vellum/errors';
import type { Logger } from '@vellum/logger';
import { requestIdFrom } from '@vellum/logger';
import { extractAccessToken, isTokenRevoked, type AccessTokenClaims, type CachedVerifier } from '@vellum/tokens';
import { startSpan, tracingEnabled } from '@vellum/tracing';
import type { CorsDecision } from '../limits/cors.middleware';
import { tagUser, type GatewayMetrics } from '../metrics/gateway-metrics';
import type { Proxy, ProxyCall } from '../proxy/proxy.handler';
import { isAuthPath, routeLabel, serviceFor, type ServiceName } from '../proxy/service-routes';
import { historyServiceFor } from '../proxy/history-routes';
import { clientIp, clientProtocol, memoisePeerTrust, type TrustFn } from '@vellum/http';
import { sendError } from './send-error';
import { GRAPHQL_PATH, type GraphQLDoor } from './graphql-door';

interface FrontDoorOptions {
  proxies: Record<ServiceName, Proxy>;
  /** The compiled TRUST_PROXY (compileTrust), the app's `trust proxy` setting. */
  trust: TrustFn;
  /** the app's query parser (qs, extended, cached): `?access_token=` is read exactly as express reads it. */
  parseQuery: (query: string) => Record<string, unknown>;
  verifier: CachedVerifier;
  sessionCookieName: string;
  isSessionRevoked?: (sessionId: string) => boolean;
  /** Security headers (flat name/value list). */
  securityHeaders: string[];
  cors?: (method: string, headers: IncomingMessage['headers']) => CorsDecision;
  rateLimit?: (key: string) => Promise<AppError | undefined>;
  metrics?: GatewayMetrics;
  logger: Logger;
  /** `POST /graphql/system` (no query) answered here too, after the same first steps (graphql-door.ts). */
  graphql?: GraphQLDoor;
}

/**
 * The proxied REST paths on bare node:http, in front of express: the same request id, security headers, CORS,
 * rate limit, token pre-check, body limit, X-Forwarded-* / traceparent, error envelope and metrics as the express
 * stack gave them, without express's per-request work (prototype swaps, router walk, middleware chain,
 * AsyncLocalStorage); and, with `graphql`, `POST /graphql/system`. Returns false for every other request (/server/*,
 * other GraphQL requests, /metrics, 404s): express answers those.
 */
export function createFrontDoor(o: FrontDoorOptions): (req: IncomingMessage, res: ServerResponse) => boolean {
  const door = new FrontDoor(o);
  return (req, res) => door.handle(req, res);
}

/** One request through the front door: what the proxy needs (ProxyCall) and how to answer with an error. */
class Exchange implements ProxyCall {
  constructor(
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
    readonly url: string,
    /** Index of `?` in url, or -1. */
    readonly q: number,
    readonly path: string,
    readonly method: string,
    readonly requestId: string,
    readonly responseHeaders: string[],
    readonly logger: Logger,
    readonly peerTrusted: boolean,
    readonly protocol: string,
    readonly traceparent: string | undefined,
  ) {}

  fail(err: unknown): void {
    sendError(this.res, err, { requestId: this.requestId, method: this.method, url: this.url, headers: this.responseHeaders, logger: this.logger });
  }
}

/**
 * Methods on a class rather than per-request closures: the gateway runs under tsx, whose keepNames transform
 * gives every named closure an Object.defineProperty call each time it is created.
 */
class FrontDoor {
  private readonly trust: TrustFn;

  constructor(private readonly o: FrontDoorOptions) {
    this.trust = memoisePeerTrust(o.trust);
  }

  handle(req: IncomingMessage, res: ServerResponse): boolean {
    const url = req.url ?? '';
    if (url.charCodeAt(0) !== 47 /* / */) return false;
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    const method = req.method ?? 'GET';
    const service = historyServiceFor(method, path, url, q) ?? serviceFor(path);
    if (!service && !(path === GRAPHQL_PATH && q === -1 && method === 'POST' && this.o.graphql)) return false;

    const { o, trust } = this;
    const requestId = requestIdFrom(req.headers['x-request-id']);
    req.headers['x-request-id'] = requestId;
    const headers = ['X-Request-Id', requestId, ...o.securityHeaders];
    // With tracing on, the gateway's own span (exported) becomes the upstream's parent.
    const span = tracingEnabled()
      ? startSpan(`${method} gateway`, req.headers.traceparent, { 'http.request.method': method, 'vellum.request_id': requestId })
      : undefined;
    if (o.metrics) o.metrics.track(method, routeLabel(path), res, requestId, span);
    let x: Exchange | undefined;
    try {
      if (o.cors) {
        const decision = o.cors(method, req.headers);
        for (const h of decision.headers) headers.push(h);
        if (decision.preflight) {
          res.writeHead(204, headers);
          res.end();
          return true;
        }
      }
      const peerTrusted = trust(req.socket.remoteAddress ?? '', 0);
      x = new Exchange(req, res, url, q, path, method, requestId, headers, o.logger, peerTrusted, clientProtocol(req, trust), span?.traceparent);
      if (o.rateLimit) {
        const ex = x;
        o.rateLimit(clientIp(req, trust) ?? 'unknown').then(
          (refused) => (refused ? ex.fail(refused) : this.pass(ex, service)),
          (e: unknown) => ex.fail(e),
        );
      } else {
        this.pass(x, service);
      }
    } catch (e) {
      if (x) x.fail(e);
      else sendError(res, e, { requestId, method, url, headers, logger: o.logger });
    }
    return true;
  }

  /** After the rate limit: a proxied path's token check and proxy, or the GraphQL door. */
  private pass(x: Exchange, service: ServiceName | undefined): void {
    if (service) this.checkThenForward(x, service);
    else this.o.graphql!.handle(x);
  }

  /**
   * The token pre-check (after the rate limit, as in express): synchronous when there is no token or the token
   * was verified before; otherwise the proxying waits for the signature check. Then the proxy.
   */
  private checkThenForward(x: Exchange, service: ServiceName): void {
    const { o } = this;
    try {
      if (!isAuthPath(x.path)) {
        const found = extractAccessToken(
          { query: { access_token: this.tokenFromQuery(x) }, headers: x.req.headers } as unknown as Request,
          o.sessionCookieName,
        );
        if (found) {
          const claims = o.verifier.cached(found.token);
          if (!claims) {
            o.verifier
              .verify(found.token)
              .then((c) => {
                this.checkSession(c);
                tagUser(x.res, c.id);
                o.proxies[service](x.req, x.res, x);
              })
              .catch((e: unknown) => x.fail(e));
            return;
          }
          this.checkSession(claims);
          tagUser(x.res, claims.id);
        }
      }
      o.proxies[service](x.req, x.res, x);
    } catch (e) {
      x.fail(e);
    }
  }

  /** `?access_token=` exactly as express's query parser reads it; only a query that can spell it is parsed. */
  private tokenFromQuery(x: Exchange): unknown {
    if (x.q === -1) return undefined;
    const query = x.url.slice(x.q + 1);
    if (!query.includes('access_token') && !query.includes('%')) return undefined;
    return this.o.parseQuery(query).access_token;
  }

  private checkSession(claims: AccessTokenClaims): void {
    if (this.o.isSessionRevoked && isTokenRevoked(claims, this.o.isSessionRevoked)) throw errors.tokenExpired();
  }
}
