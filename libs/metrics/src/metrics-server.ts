import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';

export interface MetricsServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * The process's metrics listener, apart from its public port: `GET /metrics` answers the registry in the
 * Prometheus text format; everything else 404. Rejects when the port is taken (a clear start error).
 */
export function startMetricsServer(registry: Registry, port: number, host = '0.0.0.0'): Promise<MetricsServer> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method !== 'GET' || path !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
      (err: Error) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`${err.message}\n`),
    );
  });
  server.keepAliveTimeout = 65_000;
  return new Promise((resolve, reject) => {
    server.once('error', (err) => reject(new Error(`metrics listener on ${host}:${port}: ${err.message}`)));
    server.listen(port, host, () => {
      const actual = (server.address() as AddressInfo).port;
      const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
      resolve({
        url: `http://${shown}:${actual}/metrics`,
        port: actual,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
