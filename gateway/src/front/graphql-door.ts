import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, RequestHandler } from 'express';
import { errorMiddleware, errors, type ErrorLogger } from '@vellum/errors';
import { runWithRequestContext } from '@vellum/logger';
import { plainOperation } from '@vellum/subgraph';
import { extractAccessToken, isTokenRevoked, type AccessTokenClaims, type CachedVerifier } from '@vellum/tokens';
import type { FederationParts, FederationRequest } from '../graphql/federation';
import type { SingleFetchAnswer } from '../graphql/single-fetch-path';
import { subgraphHeaders } from '../graphql/subgraph-headers';
import { forwardedRequestHeaders, nextTraceparent, type ForwardContext } from '../proxy/forward-headers';
import { tagUser } from '../metrics/gateway-metrics';
import { JsonBody } from './json-body';
import { answerEncoding, compress } from '@vellum/http';

/** The one path the door answers (exactly, without a query: anything else stays on the express stack). */
export const GRAPHQL_PATH = '/graphql/system';

interface GraphQLDoorOptions {
  parts: FederationParts;
  /** The JSON body parser the express stack mounts on /graphql/system (federation-routes.ts: graphqlBody). */
  body: RequestHandler;
  /** Its limit, in bytes (JsonBody reads the plain case itself). */
  bodyLimit: number;
  verifier: CachedVerifier;
  sessionCookieName: string;
  isSessionRevoked?: (sessionId: string) => boolean;
  logger: ErrorLogger;
}

/** What the door needs of the front door's request (its Exchange). */
interface GraphQLCall extends ForwardContext {
  req: IncomingMessage;
  res: ServerResponse;
  /** The gateway's own response headers (request id, security headers, CORS): flat name/value list. */
  responseHeaders: string[];
  /** Answer with the error envelope (nothing sent yet). */
  fail(err: unknown): void;
}

/**
 * `POST /graphql/system` in the front door (bare node:http), after its request id, security headers, CORS, rate
 * limit and metrics: the steps the express stack mounts there, in its order — the JSON body (the same parser, so
 * the same limits and errors; the plain case read by JsonBody), the token pre-check (the session cookie is not checked: see
 * token-check.middleware.ts), then the single-fetch path (graphql/single-fetch-path.ts), whose answer is written
 * here with node's API; what it leaves (and every operation when it is off) goes to Apollo Server on the same node
 * objects, the gateway's headers set on the response first and its errors through the error handler, as on the
 * express stack. Methods on a class: no per-request named closures (tsx's keepNames).
 */
export class GraphQLDoor {
  private readonly onError: ReturnType<typeof errorMiddleware>;
  private readonly body: JsonBody;

  constructor(private readonly o: GraphQLDoorOptions) {
    this.onError = errorMiddleware(o.logger);
    this.body = new JsonBody(o.body, o.bodyLimit);
  }

  handle(x: GraphQLCall): void {
    try {
      this.body.read(x.req, x.res, (err?: unknown) => (err ? x.fail(err) : this.checkToken(x)));
    } catch (e) {
      x.fail(e);
    }
  }

  /** tokenCheck({ checkCookie: false }): a bearer token is verified (synchronously when verified before). */
  private checkToken(x: GraphQLCall): void {
    try {
      const found = extractAccessToken({ query: {}, headers: x.req.headers } as unknown as Request, this.o.sessionCookieName);
      if (!found || found.source === 'cookie') return this.operation(x);
      const claims = this.o.verifier.cached(found.token);
      if (claims) return this.accept(x, claims);
      this.o.verifier.verify(found.token).then(
        (c) => this.accept(x, c),
        (e: unknown) => x.fail(e),
      );
    } catch (e) {
      x.fail(e);
    }
  }

  private accept(x: GraphQLCall, claims: AccessTokenClaims): void {
    if (this.o.isSessionRevoked && isTokenRevoked(claims, this.o.isSessionRevoked)) return x.fail(errors.tokenExpired());
    tagUser(x.res, claims.id);
    this.operation(x);
  }

  private operation(x: GraphQLCall): void {
    const { single, fetchFailed } = this.o.parts;
    if (!single) return this.full(x);
    const req = x.req;
    const headers = subgraphHeaders(forwardedRequestHeaders(req, x), req.headers.authorization, undefined);
    single(plainOperation(req.method, req.headers, (req as Request).body), headers, (e) => fetchFailed(req, e)).then(
      (answer) => (answer ? this.send(x, answer) : this.full(x)),
      (e: unknown) => x.fail(e),
    );
  }

  /** What the express stack's answer holds: the gateway's headers, the cookies, JSON, no-store, the length. */
  private send(x: GraphQLCall, a: SingleFetchAnswer): void {
    const out = x.responseHeaders.slice();
    for (const c of a.cookies) out.push('Set-Cookie', c);
    const encoding = answerEncoding(x.req.headers['accept-encoding'], a.body.length, () => out.push('Vary', 'Accept-Encoding'));
    const body = encoding ? compress(a.body, encoding) : a.body;
    if (encoding) out.push('Content-Encoding', encoding);
    out.push(
      'Content-Type',
      'application/json; charset=utf-8',
      'Cache-Control',
      'no-store',
      'Content-Length',
      String(typeof body === 'string' ? Buffer.byteLength(body) : body.length),
    );
    x.res.writeHead(200, out);
    x.res.end(body);
  }

  /** Apollo Server over Apollo Gateway, on node's objects (request context, the gateway's headers already set). */
  private full(x: GraphQLCall): void {
    const { parts } = this.o;
    const req = x.req as FederationRequest;
    const res = x.res;
    try {
      req.requestId = x.requestId;
      const own = x.responseHeaders;
      for (let i = 0; i < own.length; i += 2) res.appendHeader(own[i]!, own[i + 1]!);
      const context = { requestId: x.requestId, traceparent: x.traceparent ?? nextTraceparent(req.headers.traceparent) };
      const failed = (err?: unknown) => this.onError(err ?? errors.routeNotFound(GRAPHQL_PATH), req, res, () => undefined);
      runWithRequestContext(context, () => parts.full(req, res, failed));
    } catch (e) {
      this.onError(e, req, res, () => undefined);
    }
  }
}
