import { existsSync, mkdirSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { Logger } from '@vellum/logger';
import { supervise, type Supervised } from './child-process';
import { freePort } from '@vellum/http';

/** `nats-server` from PATH (Debian installs it in /usr/sbin). */
function findNatsServer(searchPath: string | undefined): string | undefined {
  return (searchPath ?? '')
    .split(path.delimiter)
    .concat(['/usr/sbin', '/usr/local/sbin', '/usr/local/bin'])
    .map((d) => path.join(d, 'nats-server'))
    .find((p) => existsSync(p));
}

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = net.connect({ port, host: '127.0.0.1' });
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
  });

/** A nats-server with JetStream on a free loopback port, its store and its log (nats-server.log) under `storeDir`. */
export async function startNatsServer(storeDir: string, searchPath: string | undefined, logger: Logger): Promise<{ url: string; process: Supervised }> {
  const binary = findNatsServer(searchPath);
  if (!binary) throw new Error('NATS_URL is not set and no nats-server is on PATH: install it (Debian: apt-get install nats-server) or set NATS_URL');
  mkdirSync(storeDir, { recursive: true });
  const port = await freePort();
  const proc = supervise({
    name: 'nats-server',
    command: binary,
    args: ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir, '-l', path.join(storeDir, 'nats-server.log')],
    env: {},
    cwd: storeDir,
    logger,
    ready: () => accepts(port),
    readyTimeoutMs: 20_000,
  });
  await proc.start();
  return { url: `nats://127.0.0.1:${port}`, process: proc };
}
