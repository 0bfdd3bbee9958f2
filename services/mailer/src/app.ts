import { Router } from 'express';
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
import { httpMetrics, type Registry } from '@vellum/metrics';

export interface MailerAppDeps extends ServiceAppDeps {
  metrics: Registry;
  /** Readiness: the queue connection (messaging) and anything else the composition root adds. */
  probes: Record<string, HealthProbe>;
}

export type MailerApp = ServiceApp;

/** The worker's small HTTP face: ping, ready, health (metrics are on the metrics port). Never listens. */
export function createApp({ logger, metrics, probes, healthToken }: MailerAppDeps): MailerApp {
  const app = createServiceApp({ service: 'mailer', logger, observe: httpMetrics(metrics, 'mailer').observe });
  const server = Router() as Router & RouteTable;
  const health = serverRoutes(server, probes, { healthToken });
  app.use(server);
  finishServiceApp(app, logger);
  return { app, listener: serviceListener(app), routes: server.routes ?? [], health };
}
