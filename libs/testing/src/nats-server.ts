import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { freePort } from '@vellum/http';

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

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ port, host: '127.0.0.1' });
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
  });
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
  let child: ChildProcess | undefined;
  const server: OwnNatsServer = {
    url: `nats://127.0.0.1:${port}`,
    port,
    async start() {
      const args = ['-a', '127.0.0.1', '-p', String(port), ...(opts.jetstream === false ? [] : ['-js', '-sd', dir])];
      const c = spawn(binary, args, { stdio: 'ignore' });
      child = c;
      const deadline = Date.now() + 10_000;
      while (!(await listening(port))) {
        if (c.exitCode !== null) throw new Error(`nats-server exited (${c.exitCode}) on port ${port}`);
        if (Date.now() > deadline) throw new Error(`nats-server did not listen on port ${port} within 10 s`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async stop() {
      const c = child;
      child = undefined;
      if (!c || c.exitCode !== null || c.signalCode !== null) return;
      await new Promise<void>((resolve) => {
        c.once('exit', () => resolve());
        c.kill('SIGKILL');
      });
    },
    async destroy() {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await server.start();
  return server;
}
