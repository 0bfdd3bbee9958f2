import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** A process the bench started: its group is killed with SIGKILL at the end. */
export interface Child {
  pid: number;
  stop(): Promise<void>;
}

const ROOT = path.resolve(__dirname, '..');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

function start(cmd: string, args: string[], env: Record<string, string>, stderr: 'inherit' | 'ignore' = 'inherit'): Child & { child: ChildProcess } {
  const child = spawn(cmd, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', stderr], detached: true });
  return {
    child,
    pid: child.pid!,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          resolve();
        }
      }),
  };
}

async function waitUp(url: string, c: { child: ChildProcess }, what: string, ms = 120_000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (c.child.exitCode !== null) throw new Error(`${what} exited (${c.child.exitCode})`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not yet */
    }
    if (Date.now() > deadline) throw new Error(`${what} did not come up at ${url}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** A JetStream server of the bench's own (fixed stream and bucket names must not meet anybody else's). */
export async function startNats(): Promise<Child & { url: string }> {
  if (spawnSync('nats-server', ['--version']).status !== 0) throw new Error('nats-server is not on PATH (apt-get install -y nats-server)');
  const port = await freePort();
  const c = start(
    'nats-server',
    ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', mkdtempSync(path.join(os.tmpdir(), 'vellum-bench-nats-'))],
    {},
    'ignore',
  );
  const deadline = Date.now() + 20_000;
  for (;;) {
    const up = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => (s.end(), resolve(true)));
      s.once('error', () => resolve(false));
    });
    if (up) break;
    if (Date.now() > deadline) throw new Error('nats-server did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url: `nats://127.0.0.1:${port}`, pid: c.pid, stop: c.stop };
}

/**
 * The distributed topology beside the platform: the revisions service and a gateway, each its own process (as
 * `node --import tsx <service>/src/main.ts`), over the platform's database, auth service and messaging.
 */
export async function startDistributed(o: { revisionsDatabaseUrl: string; authUrl: string; itemsUrl: string; natsUrl: string }) {
  const [rPort, gPort] = [await freePort(), await freePort()];
  // METRICS_PORT 0: each process its own free metrics port (the platform beside them holds the default 9464)
  const common = { HOST: '127.0.0.1', LOG_LEVEL: 'warn', NATS_URL: o.natsUrl, METRICS_PORT: '0' };
  const node = (main: string) => ['--import', 'tsx', main];
  const revisions = start(process.execPath, node('services/revisions/src/main.ts'), {
    ...common,
    PORT: String(rPort),
    DATABASE_URL: o.revisionsDatabaseUrl,
    AUTH_URL: o.authUrl,
  });
  const revisionsUrl = `http://127.0.0.1:${rPort}`;
  const gateway = start(process.execPath, node('gateway/src/main.ts'), {
    ...common,
    PORT: String(gPort),
    AUTH_URLS: o.authUrl,
    REVISIONS_URLS: revisionsUrl,
    ITEMS_URLS: o.itemsUrl,
    RATE_LIMITER_ENABLED: 'false',
  });
  const stop = async () => {
    await gateway.stop();
    await revisions.stop();
  };
  try {
    await waitUp(`${revisionsUrl}/server/ping`, revisions, 'revisions service');
    await waitUp(`http://127.0.0.1:${gPort}/server/ping`, gateway, 'gateway');
  } catch (e) {
    await stop();
    throw e;
  }
  return { url: `http://127.0.0.1:${gPort}`, revisionsUrl, pids: [gateway.pid, revisions.pid], stop };
}
