import { spawn, type ChildProcess } from 'node:child_process';
import type { Logger } from '@vellum/logger';

export interface Supervised {
  name: string;
  /** The current process id (changes when it was restarted). */
  pid(): number | undefined;
  /** Starts it and resolves once `ready()` says so. */
  start(): Promise<void>;
  /** SIGTERM to its process group, SIGKILL after graceMs; no restart afterwards. */
  stop(graceMs?: number): Promise<void>;
}

interface SupervisedOptions {
  name: string;
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
  logger: Logger;
  /** Resolves once the process serves (polled after each start). */
  ready: () => Promise<boolean>;
  readyTimeoutMs?: number;
  /** Called after each (re)start with the new pid. */
  onStarted?: (pid: number) => void;
}

const exitOf = (c: ChildProcess) => new Promise<void>((r) => (c.exitCode !== null || c.signalCode !== null ? r() : c.once('exit', () => r())));

/**
 * One process of the distributed topology, in its own process group (an operator or a test can kill one service
 * and its children without touching the others). Restarted after an unexpected exit, as a service manager does.
 */
export function supervise(o: SupervisedOptions): Supervised {
  let child: ChildProcess | undefined;
  let stopping = false;
  let restarts = 0;
  const launch = (): ChildProcess => {
    const c = spawn(o.command, o.args, { cwd: o.cwd, env: o.env, stdio: ['ignore', 'inherit', 'inherit'], detached: true });
    child = c;
    c.once('exit', (code, signal) => {
      if (stopping || child !== c) return;
      restarts++;
      const delay = Math.min(1000 * restarts, 5000);
      o.logger.warn({ process: o.name, code, signal, restartInMs: delay }, `${o.name} exited unexpectedly; restarting`);
      setTimeout(() => {
        if (stopping) return;
        launch();
        void waitReady().then(
          () => ((restarts = 0), o.logger.info({ process: o.name, pid: child?.pid }, `${o.name} is back`)),
          (err) => o.logger.error({ err, process: o.name }, `${o.name} did not come back`),
        );
      }, delay).unref();
    });
    if (c.pid) o.onStarted?.(c.pid);
    return c;
  };
  const waitReady = async () => {
    const deadline = Date.now() + (o.readyTimeoutMs ?? 90_000);
    const c = child;
    while (Date.now() < deadline) {
      if (!c || c.exitCode !== null || c.signalCode !== null) throw new Error(`${o.name} exited during start`);
      if (await o.ready().catch(() => false)) return;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`${o.name} did not become ready within ${o.readyTimeoutMs ?? 90_000} ms`);
  };
  return {
    name: o.name,
    pid: () => child?.pid,
    async start() {
      stopping = false;
      launch();
      await waitReady();
    },
    async stop(graceMs = 25_000) {
      stopping = true;
      const c = child;
      if (!c?.pid || c.exitCode !== null || c.signalCode !== null) return;
      const kill = (sig: NodeJS.Signals) => {
        try {
          process.kill(-c.pid!, sig);
        } catch {
          /* gone */
        }
      };
      kill('SIGTERM');
      const force = setTimeout(() => kill('SIGKILL'), graceMs);
      await exitOf(c);
      clearTimeout(force);
    },
  };
}

/** True when GET <url>/server/ping answers `pong`. */
export async function pings(url: string): Promise<boolean> {
  const r = await fetch(`${url}/server/ping`, { signal: AbortSignal.timeout(1000) });
  return (await r.text()) === 'pong';
}
