import { spawn } from 'node:child_process';
import path from 'node:path';

export interface WriteLoad {
  url: string;
  mode: 'one' | 'many' | 'create' | 'nested' | 'version';
  connections: number;
  seconds: number;
  idFrom: number;
  idTo: number;
  /** Items per request: mode `many`, and `nested` (the item and batch − 1 nested notes). */
  batch?: number;
  /** Mode `version`: the versions saved (each connection its own slice), instead of the item ids. */
  ids?: string[];
  /** Open loop: requests started per second (default: closed loop, each connection as fast as it is answered). */
  rate?: number;
  headers?: Record<string, string>;
}

export interface WriteLoadResult {
  status: Record<string, number>;
  errors: number;
  requests: number;
  /** Items acknowledged (2xx answers × items per request). */
  writes: number;
  p50: number;
  p99: number;
  max: number;
  /** CPU µs the load generator used. */
  cpu: number;
}

/** bench/write-load-client.mjs in its own process (it does not share a core's event loop with what it measures). */
export function writeLoad(o: WriteLoad): Promise<WriteLoadResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(__dirname, 'write-load-client.mjs'), JSON.stringify(o)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', () => {
      try {
        resolve(JSON.parse(out) as WriteLoadResult);
      } catch (e) {
        reject(new Error(`write load output was not JSON: ${(e as Error).message}: ${out.slice(0, 200)}`));
      }
    });
  });
}
