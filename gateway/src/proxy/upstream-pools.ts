import type { GatewayConfig } from '../config';
import { UpstreamPool } from './upstream-pool';
import type { ServiceName } from './service-routes';

/** One connection pool per service, over the replicas its `*_URLS` list. */
export function createUpstreamPools(config: GatewayConfig): Record<ServiceName, UpstreamPool> {
  const poolOpts = {
    maxSockets: config.UPSTREAM_MAX_SOCKETS,
    failCooldownMs: config.UPSTREAM_FAIL_COOLDOWN,
    connectTimeoutMs: config.UPSTREAM_CONNECT_TIMEOUT,
    responseTimeoutMs: config.UPSTREAM_RESPONSE_TIMEOUT,
  };
  return {
    auth: new UpstreamPool('auth', config.AUTH_URLS, poolOpts),
    revisions: new UpstreamPool('revisions', config.REVISIONS_URLS, poolOpts),
    items: new UpstreamPool('items', config.ITEMS_URLS, poolOpts),
  };
}
