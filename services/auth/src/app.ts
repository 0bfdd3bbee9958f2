import { graphqlRoutes } from '@vellum/subgraph';
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
import { createLimiterStore, rateLimit, requestLimiter, type LimiterStore } from '@vellum/limits';
import { httpMetrics, observePool, Registry } from '@vellum/metrics';
import { authenticate, createTokenVerifier, isAdminRequest, staticKeySource, tokenUseReporter, withApiTokens, type RevocationCheck } from '@vellum/tokens';
import type { Pool } from 'pg';
import { Router, type RequestHandler } from 'express';
import type { AuthConfig } from './config';
import { pgPoolOf, type Db } from './data/prisma';
import { sessionRepository } from './data/session.repository';
import { loadSigningKeys, type SigningKeys } from './data/signing-keys';
import { loadTfaKey } from './data/tfa-key';
import { systemClock, type Clock } from './domain/clock';
import type { AuthContext } from './domain/context';
import { DeviceCookieSealer } from './domain/device-cookie';
import { LoginBuckets } from './domain/login-buckets';
import { LoginThrottle } from './domain/login-throttle';
import { ProofOfWork } from './domain/proof-of-work';
import { PasswordHasher } from './domain/password-hasher';
import { OAuthClients } from './domain/oauth-client';
import { OAuthStateSealer } from './domain/oauth-state';
import { SecretBox } from './domain/secret-box';
import { TokenIssuer } from './domain/token-issuer';
import { createSubgraph } from './graphql/subgraph';
import { graphqlAuthenticate } from './graphql/graphql-authenticate';
import { apiTokensUseCase } from './domain/api-tokens.use-case';
import { adminRoutes } from './http/admin.routes';
import { apiTokensRoutes } from './http/api-tokens.routes';
import { authRoutes } from './http/auth.routes';
import { devicesRoutes } from './http/devices.routes';
import { inviteRoutes } from './http/invite.routes';
import { oauthRoutes } from './http/oauth.routes';
import { stalledRoutes } from './http/stalled-routes';
import { sessionsRoutes } from './http/sessions.routes';
import { tfaRoutes } from './http/tfa.routes';
import { loginCounter } from './http/login-metrics';

export interface AuthAppDeps extends ServiceAppDeps {
  db: Db;
  /** Plain SQL on the login hot path (default: the `pg` pool under `db`, see `createPrisma`). */
  pg?: Pool;
  config: AuthConfig;
  keys?: SigningKeys;
  clock?: Clock;
  hasher?: PasswordHasher;
  /** Where failed logins are counted; default from config (AUTH_LOGIN_LIMIT_STORE / REDIS_URL). Not closed by close(). */
  limiterStore?: LimiterStore;
  /** AuthContext.published: the outbox relay's (start.ts). */
  published?: () => Promise<void>;
}

export interface AuthApp extends ServiceApp {
  ctx: AuthContext;
  /** Stops the GraphQL server and closes the failed-login counters' store (when it opened it). */
  close(): Promise<void>;
}

export function createApp(deps: AuthAppDeps): AuthApp {
  const { config, logger, db } = deps;
  const keys = deps.keys ?? loadSigningKeys(config, (where) => logger.warn({ where }, 'generated a new ES256 signing key'));
  const hasher =
    deps.hasher ??
    new PasswordHasher(
      { memoryKib: config.ARGON2_MEMORY_KIB, iterations: config.ARGON2_ITERATIONS, parallelism: config.ARGON2_PARALLELISM },
      { concurrency: config.HASH_CONCURRENCY, queueLimit: config.HASH_QUEUE_LIMIT },
    );
  const secrets = new SecretBox(loadTfaKey(config, keys, (where) => logger.warn({ where }, 'generated a new TFA encryption key')));
  const oauth = { clients: new OAuthClients(), states: new OAuthStateSealer(keys) };
  const limiterStore = deps.limiterStore ?? createLimiterStore({ redisUrl: loginLimitRedis(config), prefix: 'vellum:auth:' });
  const loginThrottle = new LoginThrottle(limiterStore, config);
  const registry = deps.metrics ?? new Registry();
  const ctx: AuthContext = {
    db,
    pg: deps.pg ?? pgPoolOf(db),
    config,
    logger,
    keys,
    hasher,
    loginThrottle,
    buckets: new LoginBuckets(limiterStore, config),
    devices: new DeviceCookieSealer(keys),
    pow: new ProofOfWork(keys, limiterStore),
    secrets,
    oauth,
    clock: deps.clock ?? systemClock,
    tokens: new TokenIssuer(keys),
    countLogin: loginCounter(registry),
    published: deps.published,
  };
  const unobservePool = observePool(registry, 'auth', ctx.pg);

  const app = createServiceApp({ service: 'auth', logger, observe: httpMetrics(registry, 'auth').observe, trustProxy: config.TRUST_PROXY });
  const probes: Record<string, HealthProbe> = {
    database: async () => {
      await db.$queryRaw`SELECT 1`;
      return 'ok';
    },
    ...(limiterStore.kind === 'redis' ? { 'login-limits:redis': () => limiterStore.health() } : {}),
    ...deps.probes,
  };
  const verifier = createTokenVerifier(staticKeySource({ keys: [...ctx.keys.jwks.keys] }));
  // A session row (session mode) or a session family (`sid`, every token since sessions are listed) that ended.
  const isSessionRevoked: RevocationCheck = async (id, kind) =>
    !(await (kind === 'family' ? sessionRepository.isFamilyLive(db, id, ctx.clock.now()) : sessionRepository.isLive(db, id, ctx.clock.now())));
  const server = Router() as Router & RouteTable;
  const health = serverRoutes(server, probes, {
    healthToken: config.HEALTH_TOKEN,
    canSeeDetails: isAdminRequest(verifier, { sessionCookieName: config.SESSION_COOKIE_NAME, isSessionRevoked }),
  });
  app.use(server);

  const stalled = stalledRoutes(app, config.LOGIN_STALL_TIME);
  // per client IP, in the same store as the failed logins (Redis: shared by every auth replica)
  const perAddress: RequestHandler[] = config.RATE_LIMITER_ENABLED
    ? [
        rateLimit(
          requestLimiter({
            limiter: limiterStore.limiter({ keyPrefix: 'ip', points: config.RATE_LIMITER_POINTS, durationMs: config.RATE_LIMITER_DURATION }),
            logger,
          }),
        ),
      ]
    : [];
  for (const limit of perAddress) app.use('/auth', limit);
  const auth = authRoutes(ctx);
  app.use(auth);
  const oauth2 = oauthRoutes(ctx);
  app.use(oauth2);

  const authenticated = authenticate({
    // API tokens: auth reads its own table (the gateway and the other services use the API-tokens map)
    verifier: withApiTokens(createTokenVerifier(staticKeySource({ keys: [...ctx.keys.jwks.keys] })), (hash) => apiTokensUseCase.entryByHash(ctx, hash), {
      now: () => ctx.clock.now().getTime(),
      onUse: tokenUseReporter(
        (id, use) => apiTokensUseCase.recordUse(ctx, id, new Date(use.at)),
        undefined,
        () => ctx.clock.now().getTime(),
      ),
    }),
    sessionCookieName: config.SESSION_COOKIE_NAME,
    isSessionRevoked,
  });
  const admin = adminRoutes(ctx);
  const tfa = tfaRoutes(ctx);
  const invite = inviteRoutes(ctx);
  const sessions = sessionsRoutes(ctx);
  const devices = devicesRoutes(ctx);
  const apiTokens = apiTokensRoutes(ctx);
  app.use(['/users', '/roles', '/permissions'], authenticated);
  app.use(tfa);
  app.use(invite);
  app.use(sessions);
  app.use(devices);
  app.use(apiTokens);
  app.use(admin);

  const graphql = createSubgraph(ctx);
  // GraphQL operations carry their own rules (auth mutations public, users_me needs a user, entities filtered).
  const gqlRoutes = graphqlRoutes(graphql, graphqlAuthenticate(authenticated, config.SESSION_COOKIE_NAME));
  app.use(gqlRoutes);

  stalled.after();
  finishServiceApp(app, logger);
  return {
    app,
    listener: serviceListener(app),
    ctx,
    routes: [
      ...(server.routes ?? []),
      ...(auth.routes ?? []),
      ...(oauth2.routes ?? []),
      ...(tfa.routes ?? []),
      ...(invite.routes ?? []),
      ...(sessions.routes ?? []),
      ...(devices.routes ?? []),
      ...(apiTokens.routes ?? []),
      ...(admin.routes ?? []),
      ...(gqlRoutes.routes ?? []),
    ],
    health,
    close: async () => {
      unobservePool();
      try {
        await graphql.server.stop();
      } finally {
        if (!deps.limiterStore) await limiterStore.close();
      }
    },
  };
}

/** AUTH_LOGIN_LIMIT_STORE, or redis when REDIS_URL is set, else memory (one auth process). */
function loginLimitRedis(config: AuthConfig): string | undefined {
  const kind = config.AUTH_LOGIN_LIMIT_STORE ?? (config.REDIS_URL ? 'redis' : 'memory');
  if (kind === 'memory') return undefined;
  if (!config.REDIS_URL) throw new Error('AUTH_LOGIN_LIMIT_STORE=redis needs REDIS_URL');
  return config.REDIS_URL;
}
