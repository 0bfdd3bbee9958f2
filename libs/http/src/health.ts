import { timingSafeEqual } from 'node:crypto';
import type { Request, RequestHandler } from 'express';

export type HealthStatus = 'ok' | 'warn' | 'error';
export interface HealthCheck {
  status: HealthStatus;
  reason?: string;
  /** Time the check took, ms. */
  time?: number;
}
export interface HealthReport {
  status: HealthStatus;
  checks: Record<string, HealthCheck>;
}
export type HealthProbe = () => Promise<HealthStatus | HealthCheck>;

/** RFC draft "Health Check Response Format for HTTP APIs" (what Directus answers too). */
export const HEALTH_CONTENT_TYPE = 'application/health+json';

const rank: Record<HealthStatus, number> = { ok: 0, warn: 1, error: 2 };
export const worst = (a: HealthStatus, b: HealthStatus): HealthStatus => (rank[a] >= rank[b] ? a : b);

/** Run every probe (each bounded by timeoutMs) and fold them into one report. */
export async function runHealthChecks(probes: Record<string, HealthProbe>, timeoutMs = 2000): Promise<HealthReport> {
  const entries = await Promise.all(
    Object.entries(probes).map(async ([name, probe]): Promise<[string, HealthCheck]> => {
      const started = Date.now();
      let timer: NodeJS.Timeout | undefined;
      try {
        const r = await Promise.race([
          probe(),
          new Promise<HealthCheck>((resolve) => {
            timer = setTimeout(() => resolve({ status: 'error', reason: `no answer within ${timeoutMs} ms` }), timeoutMs);
          }),
        ]);
        const check = typeof r === 'string' ? { status: r } : r;
        return [name, { ...check, time: Date.now() - started }];
      } catch (e) {
        return [name, { status: 'error', reason: (e as Error).message, time: Date.now() - started }];
      } finally {
        clearTimeout(timer);
      }
    }),
  );
  const checks = Object.fromEntries(entries);
  const status = entries.reduce<HealthStatus>((s, [, c]) => worst(s, c.status), 'ok');
  return { status, checks };
}

/**
 * One probe fan-out per `ttlMs` whatever the request rate: callers within the window share the last report
 * (or the run in progress).
 */
export function cachedHealth(run: () => Promise<HealthReport>, ttlMs = 1000, now = Date.now): () => Promise<HealthReport> {
  let last: { at: number; report: Promise<HealthReport> } | undefined;
  return () => {
    const t = now();
    if (!last || t - last.at >= ttlMs) {
      const report = run();
      last = { at: t, report };
      report.catch(() => (last = undefined));
    }
    return last.report;
  };
}

/** True when the request carries `Authorization: Bearer <token>` (compared in constant time). */
export function bearerIs(req: Request, token: string | undefined): boolean {
  if (!token) return false;
  const m = /^Bearer\s+(.+)$/i.exec(req.headers.authorization?.trim() ?? '');
  if (!m) return false;
  const a = Buffer.from(m[1].trim());
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

export interface HealthEndpointOptions {
  /** Who may read the checks (per check, per replica): an admin, a HEALTH_TOKEN holder. Others get the status. */
  canSeeDetails?: (req: Request) => boolean | Promise<boolean>;
}

const httpStatus = (report: HealthReport) => (report.status === 'error' ? 503 : 200);

/**
 * `GET /server/health`: 200 (ok/warn) or 503 (error), `application/health+json`; the body is `{"status"}` for
 * anonymous callers and the whole report for those `canSeeDetails` admits.
 */
export function healthHandler(report: () => Promise<HealthReport>, opts: HealthEndpointOptions = {}): RequestHandler {
  return async (req, res, next) => {
    try {
      const [r, details] = await Promise.all([report(), opts.canSeeDetails ? opts.canSeeDetails(req) : false]);
      res.status(httpStatus(r)).type(HEALTH_CONTENT_TYPE).setHeader('Cache-Control', 'no-store');
      res.send(JSON.stringify(details ? r : { status: r.status }));
    } catch (err) {
      next(err);
    }
  };
}

/** `GET /server/ready` (readiness: take traffic or not): 200/503 with the status only. */
export function readyHandler(report: () => Promise<HealthReport>): RequestHandler {
  return async (_req, res, next) => {
    try {
      const r = await report();
      res.status(httpStatus(r)).type(HEALTH_CONTENT_TYPE).setHeader('Cache-Control', 'no-store');
      res.send(JSON.stringify({ status: r.status }));
    } catch (err) {
      next(err);
    }
  };
}

/** `GET /server/ping` (liveness: the process answers; checks nothing else). */
export const pingHandler: RequestHandler = (_req, res) => {
  res.type('text/plain').send('pong');
};
