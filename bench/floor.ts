import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Statement } from './record-queries';

export interface Floor {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/** Starts bench/floor-server.mjs in its own process, serving `routes` (path → the statements Vellum ran for it). */
export async function startFloor(databaseUrl: string, routes: Record<string, Statement[]>, poolMax = 10): Promise<Floor> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'vellum-floor-'));
  const file = path.join(dir, 'routes.json');
  writeFileSync(file, JSON.stringify({ databaseUrl, poolMax, routes }));
  const child: ChildProcess = spawn(process.execPath, [path.join(__dirname, 'floor-server.mjs'), file], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`floor server exited (${code})`)));
    child.stdout!.once('data', (d) => resolve(Number(String(d).trim())));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    stop: () =>
      new Promise((resolve) => {
        child.removeAllListeners('exit');
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
