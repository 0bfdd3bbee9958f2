import http from 'node:http';
import https from 'node:https';
import { runHealthChecks, type HealthCheck, type HealthProbe, type HealthReport, type HealthStatus } from '@vellum/http';
import type { UpstreamPool } from '../proxy/upstream-pool';

interface ReplicaHealth {
  url: string;
  status: HealthStatus;
  reason?: string;
}

/** GET <replica>/server/health through the replica's pool, bounded by timeoutMs; 503 or no answer → error. */
function probeReplica(url: URL, agent: http.Agent, timeoutMs: number): Promise<ReplicaHealth> {
  return new Promise((resolve) => {
    const base = url.pathname === '/' ? '' : url.pathname;
    const req = (url.protocol === 'https:' ? https : http).get(
      { hostname: url.hostname, port: url.port, path: `${base}/server/health`, agent, timeout: timeoutMs, headers: { accept: 'application/json' } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          let status: HealthStatus = res.statusCode === 200 ? 'ok' : 'error';
          try {
            const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { status?: HealthStatus };
            if (body.status === 'ok' || body.status === 'warn' || body.status === 'error') status = body.status;
          } catch {
            if (res.statusCode === 200) status = 'warn';
          }
          resolve({ url: url.origin, status, ...(status !== 'ok' ? { reason: `answered ${res.statusCode} (${status})` } : {}) });
        });
        res.on('error', (e) => resolve({ url: url.origin, status: 'error', reason: e.message }));
      },
    );
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    req.on('close', () => clearTimeout(timer));
    req.on('error', (e) => resolve({ url: url.origin, status: 'error', reason: e.message }));
  });
}

/**
 * One check per service: ok when every replica is ok; warn when some replica is down or warns (the service
 * still answers); error when no replica is healthy.
 */
function serviceProbe(pool: UpstreamPool, timeoutMs: number): HealthProbe {
  return async (): Promise<HealthCheck> => {
    const replicas = await Promise.all(pool.replicas.map((r) => probeReplica(r.url, r.agent, timeoutMs)));
    const healthy = replicas.filter((r) => r.status !== 'error').length;
    const status: HealthStatus = healthy === 0 ? 'error' : healthy < replicas.length || replicas.some((r) => r.status === 'warn') ? 'warn' : 'ok';
    const bad = replicas.filter((r) => r.status !== 'ok');
    const check: HealthCheck & { replicas: ReplicaHealth[] } = { status, replicas };
    if (bad.length) check.reason = bad.map((r) => `${r.url}: ${r.reason}`).join('; ');
    return check;
  };
}

/** The gateway's report: each service behind it plus the gateway's own dependencies. */
export function gatewayHealth(pools: UpstreamPool[], ownProbes: Record<string, HealthProbe>, timeoutMs: number): () => Promise<HealthReport> {
  const probes: Record<string, HealthProbe> = { ...ownProbes };
  for (const pool of pools) if (pool.replicas.length) probes[pool.service] = serviceProbe(pool, timeoutMs);
  return () => runHealthChecks(probes, timeoutMs + 500);
}
