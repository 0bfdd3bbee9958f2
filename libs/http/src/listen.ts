import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import type { HealthReport } from './health';
import type { LocalServices, RequestListener } from './local-services';
import { answerParserErrors } from './parser-errors';
import { serviceListener } from './service-listener';

/** A service started by its composition root (its own process, or the embedded topology). */
export interface RunningService {
  name: string;
  /** Base URL it listens on, e.g. http://127.0.0.1:41234 */
  url: string;
  health(): Promise<HealthReport>;
  /** Stop accepting, finish in-flight requests and jobs, close connections. */
  stop(): Promise<void>;
}

/**
 * `service` with a stop() that runs once: a second call (a second signal, a test's cleanup after a failed stop)
 * waits for the same stop instead of closing pools and servers twice.
 */
export function runningService<T extends RunningService>(service: T): T {
  const stop = service.stop.bind(service);
  let stopped: Promise<void> | undefined;
  return { ...service, stop: () => (stopped ??= stop()) };
}

export interface Listening {
  server: Server;
  url: string;
  /** Graceful: stop accepting, let in-flight requests finish (up to graceMs), then drop the rest. */
  close(graceMs?: number): Promise<void>;
}

/**
 * The app on `port` through its `serviceListener` (the fast routes on bare node:http, the rest express); `local`:
 * also offer it to an in-process gateway (embedded topology) while it listens.
 */
export function listen(app: Express, port = 0, host = '127.0.0.1', local?: LocalServices): Promise<Listening> {
  return listenOn(serviceListener(app), port, host, local);
}

/** `listener` on `port` (keep-alive 65 s, the parser's errors in the contract's envelope); `local` as for `listen`. */
export function listenOn(listener: RequestListener, port = 0, host = '127.0.0.1', local?: LocalServices): Promise<Listening> {
  return new Promise((resolve, reject) => {
    const server = createServer(listener).listen(port, host);
    server.keepAliveTimeout = 65_000;
    answerParserErrors(server);
    server.once('error', reject);
    server.once('listening', () => {
      const addr = server.address() as AddressInfo;
      const url = `http://${host.includes(':') ? `[${host}]` : host}:${addr.port}`;
      const unregister = local?.register(url, listener);
      resolve({
        server,
        url,
        close: (graceMs = 10_000) =>
          new Promise<void>((done) => {
            unregister?.();
            const force = setTimeout(() => server.closeAllConnections(), graceMs);
            force.unref();
            server.close(() => {
              clearTimeout(force);
              done();
            });
            server.closeIdleConnections();
          }),
      });
    });
  });
}
