import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { AppError } from '@vellum/errors';
import { currentRequestContext } from '@vellum/logger';
import type { TrustFn } from '@vellum/http';
import type { Proxy, ProxyCall } from './proxy.handler';
import { isAuthPath, serviceFor, type ServiceName } from './service-routes';

export interface ExpressProxyOptions {
  proxies: Record<ServiceName, Proxy>;
  /** express's compiled `trust proxy fn`. */
  trust: TrustFn;
  /** The token pre-check middleware (not on /auth/*, as on the front door). */
  checkToken: RequestHandler;
}

/**
 * The proxied REST paths through the express stack — request context, metrics, security headers, CORS, rate limit
 * (the middleware above it in app.ts), the token pre-check, the same proxy, the error middleware. Production serves
 * these paths on the front door (front/front-door.ts, the fast path); this is the reference it must match, mounted
 * with `createGateway({ frontDoor: false })` (gateway/test/pipelines.test.ts sends the same requests through both).
 */
export function expressProxy({ proxies, trust, checkToken }: ExpressProxyOptions): RequestHandler {
  return (req, res, next) => {
    const service = serviceFor(req.path);
    if (!service) return next();
    const forward = () => proxies[service](req, res, new ExpressCall(req, res, next, trust));
    if (isAuthPath(req.path)) return forward();
    void Promise.resolve(checkToken(req, res, (err?: unknown) => (err ? next(err) : forward()))).catch(next);
  };
}

/**
 * What the proxy needs, from express: the headers the middleware set so far (X-Request-Id, security headers,
 * CORS) become the gateway's own response headers (added unless the upstream sets them, Vary merged), and a
 * failure goes to the error middleware with them put back.
 */
class ExpressCall implements ProxyCall {
  readonly requestId: string;
  readonly peerTrusted: boolean;
  readonly protocol: string;
  readonly traceparent: string | undefined;
  readonly responseHeaders: string[] = [];

  constructor(
    req: Request,
    private readonly res: Response,
    private readonly next: NextFunction,
    trust: TrustFn,
  ) {
    this.requestId = req.requestId ?? String(req.headers['x-request-id']);
    this.peerTrusted = trust(req.socket.remoteAddress ?? '', 0);
    this.protocol = req.protocol;
    this.traceparent = currentRequestContext()?.traceparent;
    for (const name of res.getHeaderNames()) {
      const value = res.getHeader(name);
      for (const v of Array.isArray(value) ? value : [value]) this.responseHeaders.push(name, String(v));
      res.removeHeader(name);
    }
  }

  fail(err: AppError): void {
    const h = this.responseHeaders;
    for (let i = 0; i < h.length; i += 2) this.res.appendHeader(h[i]!, h[i + 1]!);
    this.next(err);
  }
}
