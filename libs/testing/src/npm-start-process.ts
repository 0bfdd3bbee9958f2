import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';

/** The repository root (`npm start` runs deploy/local/src/main.ts from there). */
export const ROOT = path.resolve(__dirname, '../../..');

/**
 * `npm start` as a child in its own process group (as a terminal runs a job: Ctrl-C is SIGINT to the whole
 * group, and a SIGKILL to the group takes the embedded PostgreSQL with it).
 */
export function startNpmStart(dataDir: string, port: number, env: Record<string, string> = {}): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'deploy/local/src/main.ts'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATA_DIR: dataDir,
      PORT: String(port),
      EMBEDDED_DB_PORT: '0',
      METRICS_PORT: '0',
      ADMIN_EMAIL: 'admin@example.com',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
}

/** `startNpmStart` whose stdout and stderr are appended to `log.text` (a test's view of the process's log). */
export function startNpmStartLogged(dataDir: string, port: number, env: Record<string, string>, log: { text: string }): ChildProcess {
  const c = startNpmStart(dataDir, port, env);
  c.stdout?.on('data', (d) => (log.text += d));
  c.stderr?.on('data', (d) => (log.text += d));
  return c;
}

export async function waitForPing(port: number, timeoutMs: number): Promise<number> {
  const t = Date.now();
  while (Date.now() - t < timeoutMs) {
    try {
      const r = await fetch(`http://127.0.0.1:${port}/server/ping`, { signal: AbortSignal.timeout(1000) });
      if ((await r.text()) === 'pong') return Date.now() - t;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no pong within ${timeoutMs} ms`);
}

export const exited = (c: ChildProcess) =>
  new Promise<number | null>((r) => (c.exitCode !== null || c.signalCode !== null ? r(c.exitCode) : c.once('exit', (code) => r(code))));

/** PIDs of processes whose command line mentions the data dir (the embedded postgres and its children). */
export function processesUsing(dataDir: string): number[] {
  const out = execFileSync('ps', ['-eo', 'pid=,stat=,args='], { encoding: 'utf8' });
  return out
    .split('\n')
    .filter((l) => l.includes(dataDir) && !/^\s*\d+\s+Z/.test(l))
    .map((l) => Number(l.trim().split(/\s+/)[0]));
}

/** SIGKILL every process left that uses the data dir (cleanup after a test). */
export function killProcessesUsing(dataDir: string): void {
  for (const pid of processesUsing(dataDir)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
}

/** SIGTERM to the child's process group (at most `graceMs` to exit), then SIGKILL to whatever still uses its data folder. */
export async function stopProcessGroup(child: ChildProcess | undefined, dataDir: string, graceMs = 60_000): Promise<void> {
  if (child?.pid && child.exitCode === null && child.signalCode === null) {
    process.kill(-child.pid, 'SIGTERM');
    await Promise.race([exited(child), new Promise((r) => setTimeout(r, graceMs))]);
  }
  killProcessesUsing(dataDir);
}
