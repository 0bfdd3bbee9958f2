import { spawn } from 'node:child_process';
import { cpuUs } from './proc-cpu';

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** Every answer, any status. */
  total: number;
  /** CPU time the load generator itself used (µs, from /proc, sampled until it exits): on a small shared machine it competes with the server. */
  cpu: number;
}

/** autocannon in its own process (so it does not share the event loop with the servers it measures). */
export function autocannon(
  url: string,
  opts: {
    connections: number;
    seconds: number;
    headers?: Record<string, string>;
    method?: string;
    body?: string;
  },
): Promise<LoadResult> {
  const args = [require.resolve('./autocannon-cli.cjs'), '-c', String(opts.connections), '-d', String(opts.seconds), '-j'];
  for (const [k, v] of Object.entries(opts.headers ?? {})) args.push('-H', `${k}=${v}`);
  if (opts.method) args.push('-m', opts.method);
  if (opts.body) args.push('-H', 'Content-Type=application/json', '-b', opts.body);
  args.push(url);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    let cpu = NaN;
    const sample = setInterval(() => {
      const c = cpuUs(child.pid);
      if (Number.isFinite(c)) cpu = c;
    }, 100);
    child.stdout.on('data', (d) => {
      out += d;
      const c = cpuUs(child.pid); // the JSON comes last, just before it exits
      if (Number.isFinite(c)) cpu = c;
    });
    child.on('error', reject);
    child.on('close', () => {
      clearInterval(sample);
      try {
        const r = JSON.parse(out);
        resolve({
          rps: Math.round(r.requests.average),
          p50: r.latency.p50,
          p99: r.latency.p99,
          errors: r.errors,
          non2xx: r.non2xx,
          total: r.requests.total,
          cpu,
        });
      } catch (e) {
        reject(new Error(`autocannon output was not JSON: ${(e as Error).message}`));
      }
    });
  });
}
