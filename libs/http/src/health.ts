import type { RequestHandler } from 'express';

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

/** `GET /server/health`: 200 with the report, 503 when any check is `error`. */
export function healthHandler(probes: Record<string, HealthProbe>): RequestHandler {
  return async (_req, res) => {
    const report = await runHealthChecks(probes);
    res.status(report.status === 'error' ? 503 : 200).json(report);
  };
}
