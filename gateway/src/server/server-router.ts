import { Router, type Request } from 'express';
import { runHealthChecks, serverRoutes, type HealthProbe, type HealthReport } from '@vellum/http';
import type { AccessTokenClaims } from '@vellum/tokens';
import type { GatewayConfig } from '../config';
import type { UpstreamPool } from '../proxy/upstream-pool';
import { gatewayHealth } from '../health/gateway-health';
import { serverInfoHandler } from './server-info';

interface ServerRouterOptions {
  config: GatewayConfig;
  pools: UpstreamPool[];
  /** The gateway's own dependencies (readiness). */
  probes: Record<string, HealthProbe>;
  claimsOf: (req: Request) => Promise<AccessTokenClaims | undefined>;
}

/** `/server/ping`, `/server/health` and `/server/info`: the routes that are never rate limited. */
export function serverRouter({ config, pools, probes, claimsOf }: ServerRouterOptions): { router: Router; health: () => Promise<HealthReport> } {
  const router = Router();
  // Anonymous callers get the status; admins and HEALTH_TOKEN holders the checks per service and replica.
  const health = serverRoutes(router, gatewayHealth(pools, probes, config.HEALTH_TIMEOUT), {
    healthToken: config.HEALTH_TOKEN,
    canSeeDetails: async (req) => (await claimsOf(req))?.admin_access === true,
    ready: () => runHealthChecks(probes, config.HEALTH_TIMEOUT),
  });
  router.get(
    '/server/info',
    serverInfoHandler(
      {
        projectName: config.PROJECT_NAME,
        projectDescriptor: config.PROJECT_DESCRIPTOR,
        projectColor: config.PROJECT_COLOR,
        defaultLanguage: config.DEFAULT_LANGUAGE,
        rateLimit: config.RATE_LIMITER_ENABLED ? { points: config.RATE_LIMITER_POINTS, duration: config.RATE_LIMITER_DURATION } : false,
        queryLimit: { default: config.QUERY_LIMIT_DEFAULT, max: config.QUERY_LIMIT_MAX },
      },
      claimsOf,
    ),
  );
  return { router, health };
}
