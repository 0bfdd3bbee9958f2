import { spawn } from 'node:child_process';
import { cpuUs } from './proc-cpu';

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  /** Highest latency seen (ms). */
  max: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  /** Answers with a 2xx status. */
  ok: number;
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
    /** Offered load (req/s over all connections, autocannon's -R); default: as fast as answers come. */
    rate?: number;
    /** Seconds before a request counts as a timeout (autocannon's default is 10). */
    timeout?: number;
  },
): Promise<LoadResult> {
  const args = [require.resolve('autocannon/autocannon.js'), '-c', String(opts.connections), '-d', String(opts.seconds), '-j'];
  for (const [k, v] of Object.entries(opts.headers ?? {})) args.push('-H', `${k}=${v}`);
  if (opts.method) args.push('-m', opts.method);
  if (opts.body) args.push('-H', 'Content-Type=application/json', '-b', opts.body);
  if (opts.rate) args.push('-R', String(opts.rate));
  if (opts.timeout) args.push('-t', String(opts.timeout));
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
          max: r.latency.max,
          errors: r.errors,
          timeouts: r.timeouts,
          non2xx: r.non2xx,
          ok: r['2xx'],
          total: r.requests.total,
          cpu,
        });
      } catch (e) {
        reject(new Error(`autocannon output was not JSON: ${(e as Error).message}`));
      }
    });
  });
}
