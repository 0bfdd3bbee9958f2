import type { Express } from 'express';
import type { Logger } from '@vellum/logger';
import type { Registry } from '@vellum/metrics';
import type { HealthProbe, HealthReport } from './health';
import type { RequestListener } from './local-services';
import type { RouteTable } from './route';

/** What every service's `createApp` takes beside its own parts. */
export interface ServiceAppDeps {
  logger: Logger;
  /** Extra health probes (messaging, consumer, outbox relay): what the composition root adds. */
  probes?: Record<string, HealthProbe>;
  /** `Authorization: Bearer <token>` reads the health checks. */
  healthToken?: string;
  /** The process's metrics registry (default: a private one). */
  metrics?: Registry;
}

/** What every service's `createApp` returns (an express app that never listens: `listen` does). */
export interface ServiceApp {
  /** The express app (its routes, for the OpenAPI drift check); served only through `listener`. */
  app: Express;
  /** The service's one way in: what it listens with (`listenOn`), what an in-process gateway hands requests to, what its tests send to. */
  listener: RequestListener;
  routes: RouteTable['routes'];
  /** The cached health report (what /server/health answers). */
  health(): Promise<HealthReport>;
}
