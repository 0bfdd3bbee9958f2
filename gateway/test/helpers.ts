import type { Server, IncomingHttpHeaders } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import express, { type Express } from 'express';
import request from 'supertest';
import { listen, listenOn } from '@vellum/http';
import { createGateway, type Gateway, type GatewayDeps } from '../src/app';
import { loadGatewayConfig, type GatewayConfig } from '../src/config';
import type { Env } from '@vellum/config';

import { silentLogger } from '@vellum/testing';

export { silentLogger };

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
}

/** A small real HTTP server on loopback standing in for a service; can be killed and brought back on its port. */
export interface Upstream {
  name: string;
  url: string;
  port: number;
  seen: SeenRequest[];
  app: Express;
  kill(): Promise<void>;
  revive(): Promise<void>;
  close(): Promise<void>;
}

export async function startUpstream(name: string, configure: (app: Express) => void = () => {}, port = 0): Promise<Upstream> {
  const app = express();
  app.set('query parser', 'extended');
  const seen: SeenRequest[] = [];
  app.use((req, _res, next) => {
    seen.push({ method: req.method, url: req.originalUrl, headers: req.headers });
    next();
  });
  app.get('/server/health', (_req, res) => {
    res.json({ status: 'ok', checks: {} });
  });
  app.get('/server/ping', (_req, res) => {
    res.send('pong');
  });
  app.use((req, res, next) => (req.method === 'GET' && req.path.endsWith('/whoami') ? res.json({ data: name }) : next()));
  configure(app);
  let server: Server;
  let sockets = new Set<Socket>();
  const listen = (p: number) =>
    new Promise<number>((resolve, reject) => {
      server = app.listen(p, '127.0.0.1');
      sockets = new Set();
      server.on('connection', (s: Socket) => {
        sockets.add(s);
        s.on('close', () => sockets.delete(s));
      });
      server.once('error', reject);
      server.once('listening', () => resolve((server.address() as AddressInfo).port));
    });
  const actual = await listen(port);
  const kill = () =>
    new Promise<void>((resolve) => {
      if (!server.listening) return resolve();
      server.close(() => resolve());
      for (const s of sockets) s.destroy();
    });
  return {
    name,
    url: `http://127.0.0.1:${actual}`,
    port: actual,
    seen,
    app,
    kill,
    revive: async () => {
      await listen(actual);
    },
    close: kill,
  };
}

export function testConfig(env: Env = {}): GatewayConfig {
  return loadGatewayConfig({
    PORT: '0',
    UPSTREAM_CONNECT_TIMEOUT: '500',
    UPSTREAM_RESPONSE_TIMEOUT: '1500',
    UPSTREAM_FAIL_COOLDOWN: '2s',
    HEALTH_TIMEOUT: '800',
    ...env,
  });
}

/**
 * The settings a comparison of two pipelines sends its rows through (pipelines.test.ts, graphql-door.test.ts): CORS
 * for `origin`, a memory rate limit of `points` per 10 minutes, X-Forwarded-For believed from loopback (a row's
 * own client address: rows do not share a rate-limit budget).
 */
export const pipelineEnv = (origin: string, points: number): Env => ({
  CORS_ENABLED: 'true',
  CORS_ORIGIN: origin,
  RATE_LIMITER_ENABLED: 'true',
  RATE_LIMITER_STORE: 'memory',
  RATE_LIMITER_POINTS: String(points),
  RATE_LIMITER_DURATION: '10m',
  TRUST_PROXY: 'loopback',
});

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `GET path` at `base` answers 503 SERVICE_UNAVAILABLE naming `service`, within `ms` (the response timeout's bound). */
export async function expectUnavailableWithin(base: string, path: string, service: string, ms: number): Promise<void> {
  const started = Date.now();
  const r = await request(base).get(path);
  expect(r.status).toBe(503);
  expect(r.body.errors[0].extensions).toMatchObject({ code: 'SERVICE_UNAVAILABLE', service });
  expect(Date.now() - started).toBeLessThan(ms);
}

/** A gateway listening on a free port of 127.0.0.1. */
export interface ListeningGateway {
  gw: Gateway;
  base: string;
  /** Stops accepting (in-flight requests get 100 ms), then closes the gateway. */
  close(): Promise<void>;
}

/** The gateway listening with its one way in; `via: 'app'`: its express app alone (a test's reference for GraphQL). */
export async function listenGateway(deps: GatewayDeps, via: 'listener' | 'app' = 'listener'): Promise<ListeningGateway> {
  const gw = await createGateway(deps);
  const server = via === 'app' ? await listen(gw.app, 0) : await listenOn(gw.listener, 0);
  return {
    gw,
    base: server.url,
    close: async () => {
      await server.close(100);
      await gw.close();
    },
  };
}

/**
 * A revisions upstream answering GET /revisions with an empty list (started before the calling file's tests) and a
 * maker of gateways in front of it; every gateway made and the upstream are closed after the file.
 */
export function gatewaysOverRevisions(): (env?: Record<string, string>, extra?: Partial<GatewayDeps>) => Promise<Gateway> {
  let upstream: Upstream;
  const gateways: Gateway[] = [];
  beforeAll(async () => {
    upstream = await startUpstream('revisions', (app) => {
      app.get('/revisions', (_req, res) => {
        res.json({ data: [] });
      });
    });
  });
  afterAll(async () => {
    for (const g of gateways) await g.close();
    await upstream.close();
  });
  return async (env = {}, extra = {}) => {
    const gw = await createGateway({ config: testConfig({ REVISIONS_URLS: upstream.url, ...env }), logger: silentLogger(), ...extra });
    gateways.push(gw);
    return gw;
  };
}
