import { graphqlRoutes, type OperationCounts } from '@vellum/subgraph';
import { Router } from 'express';
import type { Pool } from 'pg';
import {
  createServiceApp,
  finishServiceApp,
  serverRoutes,
  type HealthProbe,
  type RouteTable,
  type ServiceApp,
  type ServiceAppDeps,
  serviceListener,
} from '@vellum/http';
import { httpMetrics, Registry } from '@vellum/metrics';
import { authenticate, cachedVerifier, isAdminRequest, type AccessRuleMap, type TokenCheckDeps } from '@vellum/tokens';
import type { RevisionsConfig } from './config';
import { RecordsReader } from './domain/records-reader';
import { createSubgraph } from './graphql/subgraph';
import { recordsRoutes } from './http/records.routes';
import { AsOfReader } from './domain/as-of/as-of-reader';
import { historyRoutes } from './http/history.routes';
import { RevisionFeed } from './domain/revision-feed';
import { streamRoutes, type StreamRegistry } from './http/stream.routes';

export interface RevisionsAppDeps extends ServiceAppDeps, TokenCheckDeps {
  pool: Pool;
  /** Role → access rules (watched from ACCESS_BUCKET; `AccessRuleMap.of` in tests). */
  rules: Pick<AccessRuleMap, 'get'>;
  config: Pick<RevisionsConfig, 'QUERY_LIMIT_DEFAULT' | 'QUERY_LIMIT_MAX' | 'QUERY_DEFERRED_JOIN_OFFSET'> &
    Partial<
      Pick<RevisionsConfig, 'TRUST_PROXY' | 'REVISIONS_MIN_VERSION_WAIT' | 'STREAM_HEARTBEAT' | 'STREAM_BATCH_INTERVAL' | 'REVISIONS_RETENTION' | 'AS_OF_LISTS'>
    >;
  /** The process's reader of new revisions for the streams (default: one of this app's own). */
  feed?: RevisionFeed;
}

export interface RevisionsApp extends ServiceApp {
  reader: RecordsReader;
  /** GraphQL operations answered by the subgraph's compiled path and by Apollo Server (@vellum/subgraph). */
  graphqlCounts: OperationCounts;
  /** Told of every recorded batch (`poke`), it feeds `GET /revisions/stream`. */
  feed: RevisionFeed;
  streams: StreamRegistry;
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
  const registry = deps.metrics ?? new Registry();
  const app = createServiceApp({ service: 'revisions', logger, observe: httpMetrics(registry, 'revisions').observe, trustProxy: config.TRUST_PROXY });
  const server = Router() as Router & RouteTable;
  const probes: Record<string, HealthProbe> = {
    database: async () => {
      await pool.query('SELECT 1');
      return 'ok';
    },
    ...deps.probes,
  };
  // Verified tokens remembered until they expire (the signature check is a noticeable part of a list request's CPU).
  const verifier = cachedVerifier(deps.verifier, { apiTokens: deps.apiTokens, onTokenUse: deps.onTokenUse, now: deps.now && (() => deps.now!().getTime()) });
  const health = serverRoutes(server, probes, {
    healthToken: deps.healthToken,
    canSeeDetails: isAdminRequest(verifier, { isSessionRevoked: deps.isSessionRevoked }),
  });
  app.use(server);

  const authenticated = authenticate({ verifier, isSessionRevoked: deps.isSessionRevoked });
  const feed = deps.feed ?? new RevisionFeed(pool, { logger, batchIntervalMs: config.STREAM_BATCH_INTERVAL });
  const stream = streamRoutes(
    { feed, reader, rules: deps.rules, pool, retentionMs: config.REVISIONS_RETENTION, now: deps.now },
    { authenticate: authenticated, verifier, isSessionRevoked: deps.isSessionRevoked, heartbeatMs: config.STREAM_HEARTBEAT ?? 15_000, logger },
  );
  app.use(stream);
  const records = recordsRoutes(reader, { app, authenticate: authenticated }, { pool, maxWaitMs: config.REVISIONS_MIN_VERSION_WAIT ?? 2000 });
  app.use(records);
  const limits = { limitDefault: config.QUERY_LIMIT_DEFAULT, limitMax: config.QUERY_LIMIT_MAX };
  const history = historyRoutes(new AsOfReader(pool, deps.rules, limits, deps.now, config.AS_OF_LISTS), {
    pool,
    rules: deps.rules,
    authenticate: authenticated,
    app,
  });
  app.use(history);

  const graphql = createSubgraph(reader);
  const gql = graphqlRoutes(graphql, authenticated, { app });
  app.use(gql);

  finishServiceApp(app, logger);
  return {
    app,
    listener: serviceListener(app),
    reader,
    routes: [...(server.routes ?? []), ...(stream.routes ?? []), ...(records.routes ?? []), ...(history.routes ?? []), ...(gql.routes ?? [])],
    health,
    graphqlCounts: graphql.counts,
    feed,
    streams: stream.streams,
    close: async () => {
      stream.streams.closeAll();
      feed.close();
      await graphql.server.stop();
    },
  };
}
