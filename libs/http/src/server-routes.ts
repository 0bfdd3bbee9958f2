import type { Request, Router } from 'express';
import { bearerIs, cachedHealth, healthHandler, pingHandler, readyHandler, runHealthChecks, type HealthProbe, type HealthReport } from './health';
import { route, type RouteTable } from './route';

export interface ServerRoutesOptions {
  /** `Authorization: Bearer <HEALTH_TOKEN>` reads the checks of /server/health. */
  healthToken?: string;
  /** Others who may read them (an admin's token). */
  canSeeDetails?: (req: Request) => boolean | Promise<boolean>;
  /** Reports are reused this long (default 1 s): one probe fan-out per second whatever the request rate. */
  cacheMs?: number;
  timeoutMs?: number;
  /**
   * What readiness looks at, when not the whole report: the gateway is ready on its own dependencies (a service
   * behind it being down must not take the entry point, and its error answers, away).
   */
  ready?: () => Promise<HealthReport>;
}

/**
 * The operator routes of a process: `/server/ping` (liveness), `/server/ready` (readiness, status only) and
 * `/server/health` (status for anyone, the checks for admins and HEALTH_TOKEN holders). Returns the cached report.
 */
export function serverRoutes(
  router: Router & Partial<RouteTable>,
  probes: Record<string, HealthProbe> | (() => Promise<HealthReport>),
  opts: ServerRoutesOptions = {},
): () => Promise<HealthReport> {
  const run = typeof probes === 'function' ? probes : () => runHealthChecks(probes, opts.timeoutMs);
  const report = cachedHealth(run, opts.cacheMs ?? 1000);
  const canSeeDetails = async (req: Request) => bearerIs(req, opts.healthToken) || (opts.canSeeDetails ? opts.canSeeDetails(req) : false);
  route(router, 'get', '/server/ping', 'public', pingHandler);
  route(router, 'get', '/server/ready', 'public', readyHandler(opts.ready ? cachedHealth(opts.ready, opts.cacheMs ?? 1000) : report));
  route(router, 'get', '/server/health', 'public', healthHandler(report, { canSeeDetails }));
  return report;
}
