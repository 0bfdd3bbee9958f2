import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request } from 'express';
import { errors, type AppError } from '@vellum/errors';
import type { Logger } from '@vellum/logger';
import { requestIdFrom } from '@vellum/logger';
import { extractAccessToken, type AccessTokenClaims } from '@vellum/tokens';
import type { CachedVerifier } from '../auth/cached-verifier';
import type { CorsDecision } from '../limits/cors.middleware';
import type { GatewayMetrics } from '../metrics/gateway-metrics';
import type { Proxy } from '../proxy/proxy.handler';
import { routeLabel, serviceFor, type ServiceName } from '../proxy/service-routes';
import { clientIp, clientProtocol, type TrustFn } from './client-address';
import { sendError } from './send-error';

export interface FrontDoorOptions {
  proxies: Record<ServiceName, Proxy>;
  /** express's compiled `trust proxy fn`. */
  trust: TrustFn;
  /** express's compiled `query parser fn` (qs, extended): `?access_token=` is read exactly as express reads it. */
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
}

/** A path under /auth is not pre-checked (see token-check.middleware.ts). */
const isAuthPath = (path: string) => path === '/auth' || path.startsWith('/auth/');

/**
 * The proxied REST paths on bare node:http, in front of express: the same request id, security headers, CORS,
 * rate limit, token pre-check, body limit, X-Forwarded-* / traceparent, error envelope and metrics as the express
 * stack gave them, without express's per-request work (prototype swaps, router walk, middleware chain,
 * AsyncLocalStorage). Returns false for every other path (/server/*, /graphql/system, /metrics, 404s): express
 * answers those.
 */
export function createFrontDoor(o: FrontDoorOptions): (req: IncomingMessage, res: ServerResponse) => boolean {
  const tokenFromQuery = (query: string): unknown => {
    // Only a query that can spell `access_token` (plainly or percent-encoded) is parsed at all.
    if (!query || (!query.includes('access_token') && !query.includes('%'))) return undefined;
    return o.parseQuery(query).access_token;
  };

  return (req, res) => {
    const url = req.url ?? '';
    if (url.charCodeAt(0) !== 47 /* / */) return false;
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    const service = serviceFor(path);
    if (!service) return false;

    const method = req.method ?? 'GET';
    const requestId = requestIdFrom(req.headers['x-request-id']);
    req.headers['x-request-id'] = requestId;
    const headers = ['X-Request-Id', requestId, ...o.securityHeaders];
    if (o.metrics) o.metrics.track(method, routeLabel(path), res);
    const fail = (err: unknown) => sendError(res, err, { requestId, method, url, headers, logger: o.logger });

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
      const peerTrusted = o.trust(req.socket.remoteAddress ?? '', 0);
      const call = { requestId, peerTrusted, protocol: clientProtocol(req, o.trust), responseHeaders: headers, fail };
      const proxy = o.proxies[service];

      const forward = () => proxy(req, res, call);
      // The token pre-check (after the rate limit, as in express): synchronous when there is no token or the
      // token was verified before; otherwise the proxying waits for the signature check.
      const checkThenForward = () => {
        try {
          if (!isAuthPath(path)) {
            const query = q === -1 ? '' : url.slice(q + 1);
            const found = extractAccessToken({ query: { access_token: tokenFromQuery(query) }, headers: req.headers } as unknown as Request, o.sessionCookieName);
            if (found) {
              const claims = o.verifier.cached(found.token);
              if (!claims) {
                o.verifier.verify(found.token).then(checkSession).then(forward).catch(fail);
                return;
              }
              checkSession(claims);
            }
          }
          forward();
        } catch (e) {
          fail(e);
        }
      };
      if (o.rateLimit) {
        o.rateLimit(clientIp(req, o.trust) ?? 'unknown').then((refused) => (refused ? fail(refused) : checkThenForward()), fail);
      } else {
        checkThenForward();
      }
    } catch (e) {
      fail(e);
    }
    return true;
  };

  function checkSession(claims: AccessTokenClaims) {
    if (claims.session && o.isSessionRevoked?.(claims.session)) throw errors.tokenExpired();
  }
}
