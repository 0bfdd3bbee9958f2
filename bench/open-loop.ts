import { spawn } from 'node:child_process';
import path from 'node:path';

export interface OpenLoopResult {
  /** Requests started (rate × seconds). */
  sent: number;
  /** Answers by status code. */
  status: Record<string, number>;
  errors: number;
  timeouts: number;
  /** Latency of every answer, any status, from its scheduled start (ms). */
  p50: number;
  p99: number;
  max: number;
  /** CPU time the load generator used (µs). */
  cpu: number;
}

/**
 * Offered load: `rate` requests per second started on a fixed schedule, in their own process, whether or not
 * earlier ones were answered (autocannon's -R instead lets every connection send its quota at the start of each
 * second, in step: bursts of the whole second's load at once, and corrects latencies with a 1 ms interval).
 */
export function openLoop(
  url: string,
  opts: { rate: number; seconds: number; method?: string; headers?: Record<string, string>; body?: string; timeoutMs?: number },
): Promise<OpenLoopResult> {
  const headers = { ...(opts.body ? { 'content-type': 'application/json' } : {}), ...opts.headers };
  const args = [path.join(__dirname, 'open-loop-client.mjs'), JSON.stringify({ ...opts, headers, url })];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', () => {
      try {
        resolve(JSON.parse(out) as OpenLoopResult);
      } catch (e) {
        reject(new Error(`open-loop output was not JSON: ${(e as Error).message}`));
      }
    });
  });
}
