import { readFileSync } from 'node:fs';
import path from 'node:path';
import express, { type Request, type Response } from 'express';
import { parse, GraphQLError } from 'graphql';
import { ApolloServer } from '@apollo/server';
import { expressMiddleware } from '@as-integrations/express5';
import { buildSubgraphSchema } from '@apollo/subgraph';
import type { GraphQLResolverMap } from '@apollo/subgraph/dist/schema-helper';
import { startUpstream, type Upstream } from './helpers';

/** The SDL of a fake subgraph: auth's is a small fixture; revisions' is the service's own schema (its resolvers here are fakes). */
export const fixtureSdl = (name: 'auth' | 'revisions') =>
  readFileSync(
    name === 'auth' ? path.join(__dirname, 'fixtures', 'auth.graphql') : path.join(__dirname, '../../services/revisions/src/graphql/schema.graphql'),
    'utf8',
  );

interface Ctx {
  req: Request;
  res: Response;
}

/** A real subgraph (Apollo Server + @apollo/subgraph) on loopback at /graphql, with /server/health. */
async function startSubgraph(name: 'auth' | 'revisions', resolvers: GraphQLResolverMap<unknown>): Promise<Upstream & { stopGraphql(): Promise<void> }> {
  const server = new ApolloServer<Ctx>({ schema: buildSubgraphSchema({ typeDefs: parse(fixtureSdl(name)), resolvers }) });
  await server.start();
  const upstream = await startUpstream(name, (app) => {
    app.use('/graphql', express.json(), expressMiddleware(server, { context: async ({ req, res }) => ({ req, res }) }));
  });
  const close = upstream.close;
  return Object.assign(upstream, {
    stopGraphql: () => server.stop(),
    close: async () => {
      await close();
      await server.stop();
    },
  });
}

export function startAuthSubgraph() {
  return startSubgraph('auth', {
    Query: {
      users_me: (_: unknown, __: unknown, { req }: Ctx) => (req.headers.authorization ? { id: 'u-me' } : null),
    },
    Mutation: {
      auth_login: (_: unknown, args: { email: string; password: string; mode?: string }, { res }: Ctx) => {
        if (args.password !== 'secret') {
          throw new GraphQLError('Invalid user credentials.', { extensions: { code: 'INVALID_CREDENTIALS' } });
        }
        if (args.mode === 'cookie') {
          res.cookie('vellum_refresh_token', 'refresh-1', { httpOnly: true });
          res.cookie('other', 'x');
          return { access_token: 'a-1', expires: '900000' };
        }
        return { access_token: 'a-1', refresh_token: 'refresh-1', expires: '900000' };
      },
    },
    vellum_users: {
      __resolveReference: (ref: { id: string }) => ({ id: ref.id, email: `${ref.id}@example.com` }),
    },
  } as unknown as GraphQLResolverMap<unknown>);
}

export function startRevisionsSubgraph() {
  return startSubgraph('revisions', {
    Query: {
      revisions: () => [
        { id: '1', collection: 'articles', activity: { id: '10', action: 'update', user: { id: 'u-1' } } },
        { id: '2', collection: 'articles', activity: { id: '11', action: 'create', user: { id: 'u-2' } } },
      ],
    },
  } as unknown as GraphQLResolverMap<unknown>);
}
