import { Router, type Express } from 'express';
import type { Pool } from 'pg';
import { createServiceApp, finishServiceApp, healthHandler, route, type HealthProbe, type RouteTable } from '@vellum/http';
import type { Logger } from '@vellum/logger';
import type { ApiTokenEntry } from '@vellum/contracts';
import { authenticate, withApiTokens, type ApiTokenLookup, type TokenVerifier } from '@vellum/tokens';
import type { RevisionsConfig } from './config';
import { RecordsReader } from './domain/records-reader';
import type { AccessRules } from './events/access-rules.store';
import { createSubgraph } from './graphql/subgraph';
import { cachedTokenVerifier } from './http/cached-token-verifier';
import { recordsRoutes } from './http/records.routes';

export interface RevisionsAppDeps {
  pool: Pool;
  rules: AccessRules;
  verifier: TokenVerifier;
  logger: Logger;
  config: Pick<RevisionsConfig, 'QUERY_LIMIT_DEFAULT' | 'QUERY_LIMIT_MAX' | 'QUERY_DEFERRED_JOIN_OFFSET'> & Partial<Pick<RevisionsConfig, 'TRUST_PROXY'>>;
  /** Session-mode tokens die at once on logout. */
  isSessionRevoked?: (sessionId: string) => boolean | Promise<boolean>;
  /** The API-tokens map (watched from messaging): API tokens are verified against it, with no call to auth. */
  apiTokens?: ApiTokenLookup;
  onTokenUse?: (entry: ApiTokenEntry) => void;
  /** Extra health probes (messaging, consumer). */
  probes?: Record<string, HealthProbe>;
  now?: () => Date;
}

export interface RevisionsApp {
  app: Express;
  reader: RecordsReader;
  routes: RouteTable['routes'];
  close(): Promise<void>;
}

export function createApp(deps: RevisionsAppDeps): RevisionsApp {
  const { pool, config, logger } = deps;
  const reader = new RecordsReader(
    pool,
    deps.rules,
    {
      limitDefault: config.QUERY_LIMIT_DEFAULT,
      limitMax: config.QUERY_LIMIT_MAX,
      deferredJoinOffset: config.QUERY_DEFERRED_JOIN_OFFSET,
    },
    deps.now,
  );
  const app = createServiceApp({ trustProxy: config.TRUST_PROXY });
  const server = Router() as Router & RouteTable;
  const probes: Record<string, HealthProbe> = {
    database: async () => {
      await pool.query('SELECT 1');
      return 'ok';
    },
    ...deps.probes,
  };
  route(server, 'get', '/server/ping', 'public', (_req, res) => res.type('text/plain').send('pong'));
  route(server, 'get', '/server/health', 'public', healthHandler(probes));
  app.use(server);

  const jwt = cachedTokenVerifier(deps.verifier);
  const verifier = deps.apiTokens ? withApiTokens(jwt, deps.apiTokens, { now: deps.now && (() => deps.now!().getTime()), onUse: deps.onTokenUse }) : jwt;
  const authenticated = authenticate({ verifier, isSessionRevoked: deps.isSessionRevoked });
  const records = recordsRoutes(reader, { app, authenticate: authenticated });
  app.use(['/revisions', '/activity'], authenticated);
  app.use(records);

  const graphql = createSubgraph(reader);
  const gql = Router() as Router & RouteTable;
  route(gql, 'post', '/graphql', 'public', authenticated, graphql.middleware);
  route(gql, 'get', '/graphql', 'public', authenticated, graphql.middleware);
  app.use(gql);

  finishServiceApp(app, logger);
  return {
    app,
    reader,
    routes: [...(server.routes ?? []), ...(records.routes ?? []), ...(gql.routes ?? [])],
    close: () => graphql.server.stop(),
  };
}
