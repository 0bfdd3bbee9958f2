import type { IncomingMessage, ServerResponse } from 'node:http';
import { HeaderMap, type ApolloServer, type BaseContext } from '@apollo/server';
import { encodeBody } from '@vellum/http';

/** The request Apollo is handed: node's, with the parsed JSON body (and what middleware set, e.g. accountability). */
export type ApolloRequest = IncomingMessage & { body?: unknown };

/** A request handler on node's objects: an express handler as well (express's are node's with more on them). */
export type NodeHandler = (req: ApolloRequest, res: ServerResponse, next: (err?: unknown) => void) => void;

/**
 * Apollo Server on node's request and response through its documented integration API
 * (`executeHTTPGraphQLRequest`), as @as-integrations/express5 does it but without express's helpers: the fast lane's
 * objects are served as they are. The context is `{ req, res }`.
 */
export function apolloOnNode<C extends BaseContext>(
  server: ApolloServer<C>,
  context: (x: { req: ApolloRequest; res: ServerResponse }) => Promise<C>,
): NodeHandler {
  return (req, res, next) => {
    serve(server, context, req, res).catch(next);
  };
}

async function serve<C extends BaseContext>(
  server: ApolloServer<C>,
  context: (x: { req: ApolloRequest; res: ServerResponse }) => Promise<C>,
  req: ApolloRequest,
  res: ServerResponse,
): Promise<void> {
  if (!('body' in req)) throw new Error('req.body is not set: the JSON body parser must run before Apollo Server');
  const headers = new HeaderMap();
  for (const [key, value] of Object.entries(req.headers)) if (value !== undefined) headers.set(key, Array.isArray(value) ? value.join(', ') : value);
  const url = req.url ?? '';
  const q = url.indexOf('?');
  const answer = await server.executeHTTPGraphQLRequest({
    httpGraphQLRequest: { method: (req.method ?? 'GET').toUpperCase(), headers, search: q === -1 ? '' : url.slice(q), body: req.body },
    context: () => context({ req, res }),
  });
  for (const [key, value] of answer.headers) res.setHeader(key, value);
  res.statusCode = answer.status ?? 200;
  if (answer.body.kind === 'complete') {
    res.end(encodeBody(res, answer.body.string));
    return;
  }
  for await (const chunk of answer.body.asyncIterator) res.write(chunk);
  res.end();
}
