import { Router, type Express, type Request, type RequestHandler, type Response } from 'express';
import { fastRoute, route, stringifyJson, type RouteTable } from '@vellum/http';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled, ApolloServerPluginInlineTraceDisabled } from '@apollo/server/plugin/disabled';
import { apolloOnNode, type NodeHandler } from './apollo-on-node';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { parse } from 'graphql';
import { formatGraphQLError } from '@vellum/errors';
import { noStore } from './no-store';
import { operationRequired } from './operation-required';
import { compiledOperations, type OperationCounts } from './compiled-operations';
import type { TextField } from './text-fields';

/** What every resolver receives: the express request (with its accountability) and response. */
export interface SubgraphContext {
  req: Request;
  res: Response;
}

export interface Subgraph {
  server: ApolloServer<SubgraphContext>;
  /** express middleware serving POST and GET /graphql. */
  middleware: RequestHandler;
  /** Operations answered by the compiled path (compiled-operations.ts) and by Apollo Server. */
  counts: OperationCounts;
  /** The compiled path alone (false: not answered), when on. */
  compiled?: (req: Request, res: Response) => Promise<boolean>;
  /** Apollo Server alone, on node's request and response (an express handler as well). */
  apollo: NodeHandler;
}

export interface SubgraphOptions {
  /** false: every operation through Apollo Server (the reference the compiled path is tested against). Default true. */
  compiled?: boolean;
  /** Root query fields that can write their answer as JSON text on the compiled path (text-fields.ts). */
  textFields?: Record<string, TextField>;
}

/**
 * A federation-2 subgraph from its SDL and resolvers: plain query operations compiled once and answered without
 * Apollo's pipeline (compiled-operations.ts), errors in the contract's GraphQL shape, no inline
 * tracing, RawJson values (`@vellum/http`) spliced into the response unparsed, and no termination-signal handlers (the composition root owns shutdown; Apollo would otherwise
 * stop itself and re-send the signal, so the process exits 1).
 */
export function createSubgraph(sdl: string, resolvers: object, opts: SubgraphOptions = {}): Subgraph {
  const schema = buildSubgraphSchema({ typeDefs: parse(sdl), resolvers: resolvers as never });
  const server = new ApolloServer<SubgraphContext>({
    stopOnTerminationSignals: false,
    schema,
    formatError: formatGraphQLError,
    introspection: true,
    plugins: [ApolloServerPluginInlineTraceDisabled(), ApolloServerPluginCacheControlDisabled(), noStore, operationRequired],
    // JSON values a resolver hands out as the database's text (RawJson) go into the response as is
    stringifyResult: stringifyJson,
  });
  server.startInBackgroundHandlingStartupErrorsByLoggingAndFailingAllRequests();
  // resolvers get the request as the route had it (express's, or the fast lane's node request with its accountability)
  const apollo = apolloOnNode(server, async ({ req, res }) => ({ req, res }) as unknown as SubgraphContext);
  const counts: OperationCounts = { text: 0, compiled: 0, apollo: 0 };
  if (opts.compiled === false) return { server, middleware: apollo, counts, apollo };
  const compiled = compiledOperations(schema, counts, opts.textFields);
  const middleware: RequestHandler = (req, res, next) => {
    compiled(req, res).then((answered) => answered || apollo(req, res, next), next);
  };
  return { server, middleware, counts, compiled, apollo };
}

/**
 * POST and GET /graphql behind `authenticate` (which sets the caller's accountability, public when anonymous):
 * operations carry their own rules, checked by the resolvers. With `lane` (the service's app), POST /graphql is a
 * `fastRoute`: its compiled operations skip express's per-request work as the REST lists do.
 */
export function graphqlRoutes(subgraph: Subgraph, authenticate: RequestHandler, lane?: { app: Express }): Router & RouteTable {
  const routes = Router() as Router & RouteTable;
  const compiled = subgraph.compiled;
  if (lane && compiled) {
    // POST /graphql in the app's fast lane (bare node:http when listening): the compiled path answers there; what
    // it leaves goes to Apollo Server on the same node objects (apolloOnNode)
    const { app } = lane;
    fastRoute(app, { router: routes, method: 'post', path: '/graphql', access: 'public', before: [authenticate] }, (req, res, next) => {
      // the compiled path and its resolvers read the request's method, headers, body and accountability only
      const [r, s] = [req as unknown as Request, res as unknown as Response];
      compiled(r, s).then((answered) => answered || subgraph.apollo(req, res, next), next);
    });
  } else route(routes, 'post', '/graphql', 'public', authenticate, subgraph.middleware);
  route(routes, 'get', '/graphql', 'public', authenticate, subgraph.middleware);
  return routes;
}
