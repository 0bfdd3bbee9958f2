import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { freePort } from '@vellum/http';
import { natsProcess } from './nats-process';

/** `nats-server` from PATH (or Debian's /usr/sbin), or undefined. */
export function natsServerBinary(): string | undefined {
  return (process.env.PATH ?? '')
    .split(delimiter)
    .concat(['/usr/sbin', '/usr/local/bin'])
    .map((d) => join(d, 'nats-server'))
    .find((p) => existsSync(p));
}

export interface OwnNatsServer {
  url: string;
  port: number;
  /** SIGKILL (nothing flushed beyond what JetStream already synced). */
  stop(): Promise<void>;
  /** Again on the same port and store. */
  start(): Promise<void>;
  /** Stop and remove the store. */
  destroy(): Promise<void>;
}

/**
 * A nats-server of the test's own (a free port, its own store directory) that the test may stop and start —
 * for outage tests, which must not touch the shared server. `jetstream: false` starts it without JetStream.
 */
export async function startOwnNatsServer(opts: { jetstream?: boolean } = {}): Promise<OwnNatsServer> {
  const binary = natsServerBinary();
  if (!binary) throw new Error('no nats-server on PATH');
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'vellum-own-nats-'));
  const proc = natsProcess(binary, port, ['-a', '127.0.0.1', '-p', String(port), ...(opts.jetstream === false ? [] : ['-js', '-sd', dir])]);
  const server: OwnNatsServer = {
    url: `nats://127.0.0.1:${port}`,
    port,
    start: proc.start,
    stop: proc.stop,
    async destroy() {
      await proc.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await server.start();
  return server;
}
