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
import type { TrustProxy } from '@vellum/config';
import type { Logger } from '@vellum/logger';
import { authenticate, cachedVerifier, isAdminRequest, type TokenCheckDeps } from '@vellum/tokens';
import type { CatalogueCache } from './data/catalogue-cache';
import { CollectionsRepository } from './data/collections.repository';
import { FieldsRepository } from './data/fields.repository';
import { RelationsRepository } from './data/relations.repository';
import type { Db } from './data/prisma';
import type { AccessRules } from './domain/access-rules';
import { CollectionsUseCase } from './domain/collections.use-case';
import { FieldsUseCase } from './domain/fields.use-case';
import { RelationsUseCase } from './domain/relations.use-case';
import type { ItemsDeps } from './domain/items-deps';
import { collectionsRoutes } from './http/collections.routes';
import { fieldsRoutes } from './http/fields.routes';
import { itemsRoutes } from './http/items.routes';
import { relationsRoutes } from './http/relations.routes';
import { RevisionsClient } from './data/revisions-client';
import { restoreRoutes } from './http/restore.routes';
import { VersionsUseCase } from './domain/versions.use-case';
import { versionsRoutes } from './http/versions.routes';
import { graphqlRoutes } from '@vellum/subgraph';
import { createItemsSubgraph } from './graphql/subgraph';

export interface CreateAppDeps extends Omit<ServiceAppDeps, 'logger'>, TokenCheckDeps {
  /** Pool for the collections' tables (createItemsPool). */
  pool: Pool;
  /** Prisma for the catalogue. */
  prisma: Db;
  rules: AccessRules;
  logger: Pick<Logger, 'error' | 'warn' | 'info'>;
  limits?: { limitDefault: number; limitMax?: number };
  /** TRUST_PROXY (default: nobody). */
  trustProxy?: TrustProxy;
  /** Back-pressure on writes while the history is behind (start.ts: HISTORY_LAG_LIMIT / HISTORY_LAG_WAIT). */
  history?: ItemsDeps['history'];
  /** MAX_BATCH_MUTATION (default 1,000). */
  maxBatchMutation?: number;
  /** MAX_RELATIONAL_DEPTH (default 10). */
  maxRelationalDepth?: number;
  /** Collection definitions kept in memory for reads (start.ts; none: every read loads its definitions). */
  catalogue?: CatalogueCache;
  /** The revisions service's base URL: restores read their revision there (REVISIONS_URL). */
  revisionsUrl?: string;
  /** Scheduled promotes (start.ts): woken when `PATCH /versions/:id` writes a schedule. */
  versionScheduler?: { wake(): void };
}

/** The items service's express app (never listens). */
export function createApp(deps: CreateAppDeps): ServiceApp {
  const itemsDeps: ItemsDeps = {
    pool: deps.pool,
    rules: deps.rules,
    now: deps.now ?? (() => new Date()),
    limits: deps.limits ?? { limitDefault: 100 },
    history: deps.history,
    maxBatchMutation: deps.maxBatchMutation,
    maxRelationalDepth: deps.maxRelationalDepth,
    catalogue: deps.catalogue,
  };
  const probes: Record<string, HealthProbe> = {
    database: async () => {
      await deps.pool.query('SELECT 1');
      return 'ok';
    },
    ...deps.probes,
  };
  const registry = deps.metrics ?? new Registry();
  const app = createServiceApp({ service: 'items', logger: deps.logger, observe: httpMetrics(registry, 'items').observe, trustProxy: deps.trustProxy });
  const router = Router() as Router & RouteTable;
  // Verified tokens remembered until they expire: a client's next requests cost no signature check.
  const verifier = cachedVerifier(deps.verifier, { apiTokens: deps.apiTokens, onTokenUse: deps.onTokenUse, now: () => itemsDeps.now().getTime() });
  const health = serverRoutes(router, probes, {
    healthToken: deps.healthToken,
    canSeeDetails: isAdminRequest(verifier, { isSessionRevoked: deps.isSessionRevoked }),
  });
  const authenticated = authenticate({ verifier, isSessionRevoked: deps.isSessionRevoked });
  // the subgraph of /graphql/system (versions, versions_by_id): its own authenticate, before the REST routes'
  const graphql = createItemsSubgraph(itemsDeps);
  const gql = graphqlRoutes(graphql, authenticated);
  app.use(gql);
  router.use(authenticated);
  const collections = new CollectionsRepository(deps.prisma, () => deps.catalogue?.invalidate());
  collectionsRoutes(router, new CollectionsUseCase(collections, deps.rules), itemsDeps.now);
  const relations = new RelationsUseCase(new RelationsRepository(deps.prisma, collections), deps.rules);
  fieldsRoutes(router, new FieldsUseCase(collections, new FieldsRepository(deps.prisma, collections), relations), itemsDeps.now);
  relationsRoutes(router, relations, itemsDeps.now);
  itemsRoutes(router, itemsDeps, { app, authenticate: authenticated });
  restoreRoutes(router, itemsDeps, new RevisionsClient(deps.revisionsUrl));
  versionsRoutes(router, itemsDeps, new VersionsUseCase(itemsDeps), () => deps.versionScheduler?.wake());
  app.use(router);
  finishServiceApp(app, deps.logger);
  return { app, listener: serviceListener(app), routes: [...(router.routes ?? []), ...(gql.routes ?? [])], health };
}
