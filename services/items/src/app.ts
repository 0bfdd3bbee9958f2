import { Router, type Express } from 'express';
import type { Pool } from 'pg';
import { createServiceApp, finishServiceApp, healthHandler, route, runHealthChecks, type HealthProbe, type HealthReport, type RouteTable } from '@vellum/http';
import type { TrustProxy } from '@vellum/config';
import type { Logger } from '@vellum/logger';
import type { ApiTokenEntry } from '@vellum/contracts';
import { authenticate, withApiTokens, type ApiTokenLookup, type TokenVerifier } from '@vellum/tokens';
import { CollectionsRepository } from './data/collections.repository';
import type { Db } from './data/prisma';
import type { AccessRules } from './domain/access-rules';
import { CollectionsUseCase } from './domain/collections.use-case';
import type { ItemsDeps } from './domain/items-deps';
import { collectionsRoutes } from './http/collections.routes';
import { itemsRoutes } from './http/items.routes';

export interface CreateAppDeps {
  /** Pool for the collections' tables (createItemsPool). */
  pool: Pool;
  /** Prisma for the catalogue. */
  prisma: Db;
  rules: AccessRules;
  verifier: TokenVerifier;
  isSessionRevoked?: (sessionId: string) => boolean | Promise<boolean>;
  /** The API-tokens map (watched from messaging): API tokens are verified against it, with no call to auth. */
  apiTokens?: ApiTokenLookup;
  onTokenUse?: (entry: ApiTokenEntry) => void;
  logger: Pick<Logger, 'error' | 'warn'>;
  limits?: { limitDefault: number; limitMax?: number };
  /** TRUST_PROXY (default: nobody). */
  trustProxy?: TrustProxy;
  now?: () => Date;
  /** Extra health probes (messaging, outbox relay). */
  healthProbes?: Record<string, HealthProbe>;
}

/** The items service's express app (never listens). */
export function createApp(deps: CreateAppDeps): { app: Express; routes: RouteTable['routes']; health(): Promise<HealthReport> } {
  const itemsDeps: ItemsDeps = {
    pool: deps.pool,
    rules: deps.rules,
    now: deps.now ?? (() => new Date()),
    limits: deps.limits ?? { limitDefault: 100 },
  };
  const probes: Record<string, HealthProbe> = {
    database: async () => {
      await deps.pool.query('SELECT 1');
      return 'ok';
    },
    ...deps.healthProbes,
  };
  const app = createServiceApp({ trustProxy: deps.trustProxy });
  const router = Router() as Router & RouteTable;
  route(router, 'get', '/server/ping', 'public', (_req, res) => res.type('text/plain').send('pong'));
  route(router, 'get', '/server/health', 'public', healthHandler(probes));
  const verifier = deps.apiTokens
    ? withApiTokens(deps.verifier, deps.apiTokens, { now: () => itemsDeps.now().getTime(), onUse: deps.onTokenUse })
    : deps.verifier;
  router.use(authenticate({ verifier, isSessionRevoked: deps.isSessionRevoked }));
  collectionsRoutes(router, new CollectionsUseCase(new CollectionsRepository(deps.prisma), deps.rules));
  itemsRoutes(router, itemsDeps);
  app.use(router);
  finishServiceApp(app, deps.logger);
  return { app, routes: router.routes, health: () => runHealthChecks(probes) };
}
