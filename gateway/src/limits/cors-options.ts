import type { GatewayConfig } from '../config';
import type { CorsOptions } from './cors.middleware';

/** The CORS policy the config asks for (undefined when CORS_ENABLED is off). */
export function corsOptionsOf(config: GatewayConfig): CorsOptions | undefined {
  if (!config.CORS_ENABLED) return undefined;
  return {
    origin: config.CORS_ORIGIN,
    credentials: config.CORS_CREDENTIALS,
    allowedHeaders: config.CORS_ALLOWED_HEADERS,
    exposedHeaders: config.CORS_EXPOSED_HEADERS,
    maxAgeSeconds: config.CORS_MAX_AGE,
  };
}
