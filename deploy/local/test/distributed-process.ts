import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { DistributedState } from '../src/distributed/start-distributed';
import { ROOT, stopProcessGroup } from '@vellum/testing';

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
