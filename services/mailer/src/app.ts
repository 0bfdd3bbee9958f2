import { Router, type Express } from 'express';
import type { Logger } from '@vellum/logger';
import { createServiceApp, finishServiceApp, healthHandler, route, type HealthProbe, type RouteTable } from '@vellum/http';
import type { MailMetrics } from './domain/mail-metrics';

export interface MailerAppDeps {
  logger: Logger;
  metrics: MailMetrics;
  /** Readiness: the queue connection (messaging) and anything else the composition root adds. */
  probes: Record<string, HealthProbe>;
}

export interface MailerApp {
  app: Express;
  routes: RouteTable['routes'];
}

/** The worker's small HTTP face: health, ping, Prometheus metrics. Never listens. */
export function createApp({ logger, metrics, probes }: MailerAppDeps): MailerApp {
  const app = createServiceApp();
  const server = Router() as Router & RouteTable;
  route(server, 'get', '/server/ping', 'public', (_req, res) => res.type('text/plain').send('pong'));
  route(server, 'get', '/server/health', 'public', healthHandler(probes));
  route(server, 'get', '/metrics', 'public', (_req, res) =>
    res.type('text/plain; version=0.0.4; charset=utf-8').send(metrics.render()),
  );
  app.use(server);
  finishServiceApp(app, logger);
  return { app, routes: server.routes ?? [] };
}
