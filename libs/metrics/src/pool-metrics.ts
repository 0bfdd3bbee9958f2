import type { Registry } from 'prom-client';
import { sampledGauge } from './sampled-gauge';

/** What `pg.Pool` exposes about itself. */
export interface PoolLike {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

/**
 * `vellum_db_pool_connections{service,pool,state}` (in_use / idle) and `vellum_db_pool_waiting{service,pool}`
 * (callers waiting for a connection), read at scrape time.
 */
export function observePool(registry: Registry, service: string, pool: PoolLike, name = 'main'): () => void {
  const connections = sampledGauge(registry, 'vellum_db_pool_connections', 'Database pool connections by state', ['service', 'pool', 'state']);
  const waiting = sampledGauge(registry, 'vellum_db_pool_waiting', 'Callers waiting for a database pool connection', ['service', 'pool']);
  const stops = [
    connections({ service, pool: name, state: 'in_use' }, () => pool.totalCount - pool.idleCount),
    connections({ service, pool: name, state: 'idle' }, () => pool.idleCount),
    waiting({ service, pool: name }, () => pool.waitingCount),
  ];
  return () => stops.forEach((s) => s());
}
