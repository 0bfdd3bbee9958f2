// Gateway REST overhead: the same GET /revisions straight to an upstream vs through the gateway, with autocannon.
// Upstream and gateway each run in their own process; autocannon runs here. Goal: gateway ≥ 0.7× direct req/s.
//   node --import tsx gateway/bench/overhead.bench.ts [seconds=10] [connections=50]
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import autocannon from 'autocannon';

const seconds = Number(process.argv[2] ?? 10);
const connections = Number(process.argv[3] ?? 50);

function serve(script: string, args: string[] = []): Promise<{ url: string; child: ChildProcess }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, script), ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
    let buf = '';
    child.stdout!.on('data', (c: Buffer) => {
      buf += c.toString();
      const m = /listening (\S+)/.exec(buf);
      if (m) resolve({ url: m[1], child });
    });
  });
}

async function load(url: string, duration: number) {
  const result = await autocannon({ url, connections, duration, pipelining: 1 });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.non2xx };
}

export async function runGatewayOverheadBench() {
  const upstream = await serve('serve-upstream.ts');
  const gateway = await serve('serve-gateway.ts', [upstream.url]);
  try {
    await load(`${upstream.url}/revisions`, 2); // warm up both paths
    await load(`${gateway.url}/revisions`, 2);
    const direct = await load(`${upstream.url}/revisions`, seconds);
    const through = await load(`${gateway.url}/revisions`, seconds);
    const ratio = through.rps / direct.rps;
    return { direct, through, ratio };
  } finally {
    upstream.child.kill('SIGTERM');
    gateway.child.kill('SIGTERM');
  }
}

if (require.main === module) {
  void runGatewayOverheadBench().then(({ direct, through, ratio }) => {
    const row = (name: string, r: typeof direct) =>
      `${name.padEnd(16)} ${r.rps.toFixed(0).padStart(7)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms  errors ${r.errors}`;
    console.log(`GET /revisions, ${connections} connections, ${seconds} s each`);
    console.log(row('direct', direct));
    console.log(row('through gateway', through));
    console.log(`ratio ${ratio.toFixed(2)} (goal ≥ 0.70) ${ratio >= 0.7 ? 'OK' : 'BELOW GOAL'}`);
    process.exit(0);
  });
}
