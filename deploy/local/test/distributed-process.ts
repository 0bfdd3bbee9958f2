import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { DistributedState } from '../src/distributed/start-distributed';
import { freePort, ROOT, stopProcessGroup, waitForPing } from '@vellum/testing';
import { FAST_LOGINS } from './platform-harness';

/** `npm run start:distributed` as a child in its own process group. */
export function startDistributedProcess(dataDir: string, port: number, env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'deploy/local/src/distributed/main.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
}

/** SIGTERM to the child's process group (given at most 60 s to exit), then whatever still uses its data folder. */
export function stopDistributedProcess(child: ChildProcess | undefined, dataDir: string): Promise<void> {
  return stopProcessGroup(child, dataDir);
}

/** Which process is which (the file start:distributed keeps up to date). */
export function distributedState(dataDir: string): DistributedState {
  return JSON.parse(readFileSync(path.join(dataDir, 'distributed.json'), 'utf8')) as DistributedState;
}

/** SIGKILL to one service's process group; resolves with the killed pid. */
export function killService(dataDir: string, name: string): number {
  const pid = distributedState(dataDir).services[name]?.pid;
  if (!pid) throw new Error(`no pid for ${name}`);
  process.kill(-pid, 'SIGKILL');
  return pid;
}

/** The administrator's password of `useDistributedPlatform`'s platforms. */
const ADMIN_PASSWORD = 'dist-admin-password-1';

/** A distributed platform started once for the enclosing `describe`. */
export interface DistributedPlatform {
  readonly port: number;
  readonly url: string;
  /** Everything the platform printed (shown when a login fails). */
  readonly out: string;
  /** Logs the administrator in; fails with the platform's output when it cannot. */
  adminToken(): Promise<string>;
}

/** Starts `npm run start:distributed` (with `env` added) before the enclosing describe's tests and stops it after them. */
export function useDistributedPlatform(folderPrefix: string, env: Record<string, string> = {}): DistributedPlatform {
  const dataDir = mkdtempSync(path.join(tmpdir(), folderPrefix));
  chmodSync(dataDir, 0o755);
  let child: ChildProcess | undefined;
  let port = 0;
  let out = '';
  beforeAll(async () => {
    const [p, dbPort] = [await freePort(), await freePort()];
    port = p;
    child = startDistributedProcess(dataDir, port, {
      EMBEDDED_DB_PORT: String(dbPort),
      ADMIN_PASSWORD,
      ...FAST_LOGINS,
      RATE_LIMITER_ENABLED: 'false',
      ...env,
    });
    child.stdout?.on('data', (d) => (out += d));
    child.stderr?.on('data', (d) => (out += d));
    await waitForPing(port, 150_000);
  }, 180_000);
  afterAll(async () => {
    await stopDistributedProcess(child, dataDir);
    rmSync(dataDir, { recursive: true, force: true });
  }, 90_000);
  return {
    get port() {
      return port;
    },
    get url() {
      return `http://127.0.0.1:${port}`;
    },
    get out() {
      return out;
    },
    async adminToken() {
      const login = await fetch(`http://127.0.0.1:${port}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'admin@example.com', password: ADMIN_PASSWORD }),
      });
      const body = (await login.json()) as { data?: { access_token?: string } };
      if (login.status !== 200 || !body.data?.access_token) throw new Error(`admin login: ${login.status}\n${out.slice(-2000)}`);
      return body.data.access_token;
    },
  };
}
