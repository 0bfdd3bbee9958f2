import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { printSchema } from 'graphql';
import { ApolloServer } from '@apollo/server';
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginLandingPageDisabled,
  ApolloServerPluginSchemaReportingDisabled,
  ApolloServerPluginUsageReportingDisabled,
} from '@apollo/server/plugin/disabled';
import { ApolloGateway, RemoteGraphQLDataSource } from '@apollo/gateway';
import { AppError, formatGraphQLError } from '@vellum/errors';
import type { Logger } from '@vellum/logger';
import { disableApolloTelemetry } from '../config';
import { currentRequestContext } from '@vellum/logger';
import { forwardedRequestHeaders } from '../proxy/forward-headers';
import type { UpstreamPool } from '../proxy/upstream-pool';
import { clientProtocol, encodeBody, extendedQueryParser, type LocalServices, type TrustFn } from '@vellum/http';
import { apolloOnNode, noStore, operationRequired, plainOperation, type NodeHandler } from '@vellum/subgraph';
import { singleFetchPath, type SingleFetch, type SingleFetchAnswer } from './single-fetch-path';
import { listNestingLimit, MAX_DOCUMENT_TOKENS } from './document-limits';
import { subgraphHeaders } from './subgraph-headers';
import { subgraphFetcher } from './subgraph-fetcher';

/** A GraphQL request as the gateway has it (node's, from the front door or express): its id and parsed body. */
export type FederationRequest = IncomingMessage & { requestId?: string; body?: unknown };

interface GraphQLContext {
  req: FederationRequest;
  res: ServerResponse;
}

interface FederationOptions {
  supergraphSdl: string;
  /** Subgraph name → the replicas of the service that serves it (at `${replica}/graphql`). */
  pools: Record<string, UpstreamPool>;
  timeoutMs: number;
  logger: Logger;
  introspection: boolean;
  onUpstreamError?: (service: string, reason: string) => void;
  /**
   * Query operations planned to one fetch from one subgraph go straight to it (single-fetch-path.ts); false: every
   * operation through Apollo Gateway. Default true.
   */
  singleFetch?: boolean;
  /** The embedded topology: subgraph requests to a replica in this process go to it without a socket. */
  local?: LocalServices;
  /** Which path each POSTed operation took. */
  onOperation?: (path: 'single_fetch' | 'planned') => void;
  /** The gateway's compiled TRUST_PROXY: whose X-Forwarded-* the subgraph requests carry on. */
  trust: TrustFn;
}

export interface Federation {
  /** POST and GET /graphql/system (mount after express.json and the token check). */
  handler: RequestHandler;
  /** What the front door answers POST /graphql/system with (front/graphql-door.ts). */
  parts: FederationParts;
  /** The composed API schema (what clients see), as SDL. */
  apiSchemaSdl(): string;
  stop(): Promise<void>;
}

/**
 * The caller's headers a subgraph request carries (subgraph-headers.ts): X-Forwarded-* per `trust`, the request id,
 * the gateway's span (the request context's traceparent) and the caller's token (a bearer, or `?access_token=`).
 */
function forwardHeaders(req: FederationRequest, trust: TrustFn): Record<string, string> {
  const url = req.url ?? '';
  const q = url.indexOf('?');
  const query = q === -1 ? undefined : (extendedQueryParser(url.slice(q + 1)) as { access_token?: unknown });
  const forwarded = forwardedRequestHeaders(req, {
    requestId: req.requestId ?? String(req.headers['x-request-id'] ?? ''),
    peerTrusted: trust(req.socket.remoteAddress ?? '', 0),
    protocol: clientProtocol(req, trust),
    traceparent: currentRequestContext()?.traceparent,
  });
  return subgraphHeaders(forwarded, req.headers.authorization, query?.access_token);
}

/** A single-fetch answer, with node's API (as the front door writes it: graphql-door.ts). */
function sendAnswer(res: ServerResponse, a: SingleFetchAnswer): void {
  if (a.cookies.length) res.appendHeader('Set-Cookie', a.cookies);
  res.statusCode = 200;
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.setHeader('cache-control', 'no-store');
  const body = encodeBody(res, a.body);
  res.setHeader('content-length', typeof body === 'string' ? Buffer.byteLength(body) : body.length);
  res.end(body);
}

/** The handler's two paths, for a request outside express. */
export interface FederationParts {
  /** Absent when off (FederationOptions.singleFetch). */
  single?: SingleFetch;
  /** Apollo Server over Apollo Gateway, on node's request and response (apolloOnNode). */
  full: NodeHandler;
  /** The single-fetch path could not reach its subgraph for this request: the full path answers that failure. */
  fetchFailed(req: object, error: unknown): void;
}

export async function createFederation(opts: FederationOptions): Promise<Federation> {
  disableApolloTelemetry();
  /** Requests whose single-fetch attempt could not reach its subgraph → that failure (the full path answers it). */
  const fetchFailures = new WeakMap<object, unknown>();
  const gateway = new ApolloGateway({
    supergraphSdl: opts.supergraphSdl,
    logger: opts.logger,
    buildService: ({ name, url }) => {
      const pool = opts.pools[name];
      if (!pool) throw new Error(`No upstream configured for subgraph "${name}"`);
      return new RemoteGraphQLDataSource<GraphQLContext>({
        url,
        fetcher: subgraphFetcher(pool, opts.timeoutMs, opts.onUpstreamError, opts.local),
        willSendRequest({ request, context }) {
          // context.req is missing only for gateway-internal requests (none with a static supergraph)
          if (!context.req) return;
          // the single-fetch path already met this subgraph's failure for this request: the same error, at once
          const failure = fetchFailures.get(context.req);
          if (failure) throw failure;
          const headers = request.http!.headers as unknown as Headers;
          for (const [name, value] of Object.entries(forwardHeaders(context.req, opts.trust))) headers.set(name, value);
        },
        didReceiveResponse({ response, context }) {
          // auth_login/auth_refresh in cookie/session mode set cookies: every Set-Cookie goes back to the caller.
          const h = response.http?.headers as unknown as { getSetCookie?: () => string[] } | undefined;
          const cookies = h?.getSetCookie?.() ?? [];
          if (cookies.length && context.res && !context.res.headersSent) context.res.appendHeader('Set-Cookie', cookies);
          return response;
        },
      });
    },
  });
  let apiSdl = '';
  gateway.onSchemaLoadOrUpdate(({ apiSchema }) => {
    apiSdl = printSchema(apiSchema);
  });
  const server = new ApolloServer<GraphQLContext>({
    // The composition root owns shutdown; Apollo would otherwise stop itself and re-send the signal.
    stopOnTerminationSignals: false,
    gateway,
    introspection: opts.introspection,
    includeStacktraceInErrorResponses: false,
    validationRules: [listNestingLimit],
    parseOptions: { maxTokens: MAX_DOCUMENT_TOKENS },
    // GET is allowed for queries; a GET carrying only a cookie needs a header a browser form cannot set.
    csrfPrevention: { requestHeaders: ['x-apollo-operation-name', 'apollo-require-preflight', 'authorization'] },
    formatError: (formatted, error) => {
      const original = (error as { originalError?: unknown })?.originalError;
      if (!(original instanceof AppError)) opts.logger.debug({ err: error }, 'graphql error');
      return formatGraphQLError(formatted, error);
    },
    logger: opts.logger,
    plugins: [
      ApolloServerPluginLandingPageDisabled(),
      ApolloServerPluginUsageReportingDisabled(),
      ApolloServerPluginSchemaReportingDisabled(),
      ApolloServerPluginCacheControlDisabled(),
      noStore,
      operationRequired,
    ],
  });
  await server.start();
  const full = apolloOnNode(server, async ({ req, res }) => ({ req, res }));
  const single =
    opts.singleFetch === false
      ? undefined
      : singleFetchPath({
          supergraphSdl: opts.supergraphSdl,
          fetchers: Object.fromEntries(
            Object.entries(opts.pools).map(([name, pool]) => [name, subgraphFetcher(pool, opts.timeoutMs, opts.onUpstreamError, opts.local, true) as never]),
          ),
          onOperation: opts.onOperation,
        });
  const fetchFailed = (req: object, error: unknown) => void fetchFailures.set(req, error);
  const handler: RequestHandler = single
    ? (req, res, next) => {
        single(plainOperation(req.method, req.headers, req.body), forwardHeaders(req, opts.trust), (e) => fetchFailed(req, e)).then(
          (answer) => (answer ? sendAnswer(res, answer) : full(req, res, next)),
          next,
        );
      }
    : full;
  return {
    handler,
    parts: { single, full, fetchFailed },
    apiSchemaSdl: () => apiSdl,
    stop: () => server.stop(),
  };
}
