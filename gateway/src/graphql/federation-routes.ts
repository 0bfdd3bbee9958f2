import express, { type Express, type RequestHandler } from 'express';
import { errors } from '@vellum/errors';
import type { Logger } from '@vellum/logger';
import type { TokenVerifier } from '@vellum/tokens';
import { refuseDeepJson, type LocalServices, type TrustFn } from '@vellum/http';
import type { GatewayConfig } from '../config';
import type { UpstreamPool } from '../proxy/upstream-pool';
import type { ServiceName } from '../proxy/service-routes';
import { tokenCheck } from '../auth/token-check.middleware';
import { createFederation, type Federation } from './federation';
import { readCommittedSupergraph } from './compose-supergraph';

interface FederationRoutesOptions {
  config: GatewayConfig;
  logger: Logger;
  pools: Record<ServiceName, UpstreamPool>;
  verifier: TokenVerifier;
  isSessionRevoked?: (sessionId: string) => boolean;
  /** The static supergraph; default the committed gateway/src/graphql/supergraph.graphql. */
  supergraphSdl?: string;
  /** The body limit of a GraphQL request. */
  bodyLimit: number;
  onUpstreamError: (service: string, reason: string) => void;
  /** The embedded topology: subgraphs in this process are asked without a socket. */
  localServices?: LocalServices;
  /** See FederationOptions.singleFetch (default true). */
  graphqlSingleFetch?: boolean;
  onOperation?: (path: 'single_fetch' | 'planned') => void;
}

/** The JSON body of a GraphQL request (the express stack's, and the front door's: front/graphql-door.ts). */
export const graphqlBody = (limit: number): RequestHandler => {
  const json = express.json({ limit, type: ['application/json', 'application/graphql-response+json'] });
  return (req, res, next) => json(req, res, (err?: unknown) => (err ? next(err) : refuseDeepJson(req, res, next)));
};

/**
 * `/graphql/system` (the federated supergraph) and its SDL at `/server/specs/graphql/system`; without a supergraph
 * both answer 503. Returns the federation to stop on close (undefined without a supergraph).
 */
export async function federationRoutes(app: Express, o: FederationRoutesOptions): Promise<Federation | undefined> {
  const { config, logger } = o;
  const supergraphSdl = o.supergraphSdl ?? readCommittedSupergraph();
  let federation: Federation | undefined;
  if (supergraphSdl) {
    federation = await createFederation({
      supergraphSdl,
      pools: o.pools,
      timeoutMs: config.UPSTREAM_RESPONSE_TIMEOUT,
      logger,
      introspection: config.GRAPHQL_INTROSPECTION,
      onUpstreamError: o.onUpstreamError,
      singleFetch: o.graphqlSingleFetch,
      local: o.localServices,
      onOperation: o.onOperation,
      trust: app.get('trust proxy') as TrustFn,
    });
  } else {
    logger.warn('no supergraph composed yet (npm run compose -w @vellum/gateway): /graphql/system answers 503');
  }
  const noSupergraph: RequestHandler = (_req, _res, next) => next(errors.serviceUnavailable('graphql', 'no supergraph composed'));
  app.get('/server/specs/graphql/system', (_req, res, next) => {
    if (!federation) return noSupergraph(_req, res, next);
    res.type('text/plain').send(federation.apiSchemaSdl());
  });
  app.use(
    '/graphql/system',
    graphqlBody(o.bodyLimit),
    tokenCheck({ verifier: o.verifier, sessionCookieName: config.SESSION_COOKIE_NAME, isSessionRevoked: o.isSessionRevoked, checkCookie: false }),
    federation ? federation.handler : noSupergraph,
  );
  return federation;
}
