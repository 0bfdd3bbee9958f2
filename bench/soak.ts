// Soak (not CI): mixed reads, writes and logins through the gateway of the distributed topology
// (`npm run start:distributed` in a temporary DATA_DIR, or SOAK_URL of a running one). Every 30 s: requests,
// errors, p99 of the window, the machine's 1-minute load average, each process's resident memory (RSS) and its V8
// heap in use (its /metrics: nodejs_heap_size_used_bytes). At the end: the same rows as Markdown tables
// (bench/README.md) and the growth per process.
//   node --import tsx bench/soak.ts            SOAK_MINUTES=10 (default), SOAK_CLIENTS=8
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';

const MINUTES = Number(process.env.SOAK_MINUTES ?? 10);
const CLIENTS = Number(process.env.SOAK_CLIENTS ?? 8);
const ADMIN = { email: 'admin@example.com', password: 'soak-admin-password-1' };
const ROOT = path.resolve(__dirname, '..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function rssMb(pid: number): number | undefined {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : undefined;
  } catch {
    return undefined;
  }
}

async function main() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'vellum-soak-'));
  chmodSync(dataDir, 0o755); // the embedded PostgreSQL runs as `postgres`
  const port = 18000 + Math.floor(Math.random() * 1000);
  const child = spawn(process.execPath, ['--import', 'tsx', 'deploy/local/src/distributed/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      EMBEDDED_DB_PORT: '0',
      LOG_LEVEL: 'warn',
      ADMIN_PASSWORD: ADMIN.password,
      RATE_LIMITER_ENABLED: 'false',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
    detached: true,
  });
  const stop = () => {
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      /* gone */
    }
  };
  process.on('SIGINT', () => (stop(), process.exit(130)));
  const url = `http://127.0.0.1:${port}`;
  for (let t = Date.now(); ; await sleep(500)) {
    if (
      await fetch(`${url}/server/ping`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (Date.now() - t > 180_000) throw new Error('the distributed topology did not start');
  }
  const call = async (method: string, p: string, token?: string, body?: unknown) =>
    fetch(`${url}${p}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
  const token = ((await (await call('POST', '/auth/login', undefined, ADMIN)).json()) as { data: { access_token: string } }).data.access_token;
  await call('POST', '/collections', token, {
    collection: 'soak',
    fields: [
      { field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true } },
      { field: 'title', type: 'string' },
    ],
  });
  const state = () =>
    JSON.parse(readFileSync(path.join(dataDir, 'distributed.json'), 'utf8')) as { pid: number; services: Record<string, { pid: number; metrics: string }> };
  const pids = (): Record<string, number> => {
    const s = state();
    return { supervisor: s.pid, ...Object.fromEntries(Object.entries(s.services).map(([k, v]) => [k, v.pid])) };
  };
  const heapMb = async (): Promise<Record<string, number | undefined>> => {
    const entries = Object.entries(state().services).map(async ([k, v]) => {
      const text = await fetch(v.metrics, { signal: AbortSignal.timeout(5000) }).then(
        (r) => r.text(),
        () => '',
      );
      const m = /^nodejs_heap_size_used_bytes(?:\{[^}]*\})? (\S+)/m.exec(text);
      return [k, m ? Math.round(Number(m[1]) / 1048576) : undefined] as const;
    });
    return Object.fromEntries(await Promise.all(entries));
  };

  let window: number[] = [];
  let errors = 0;
  let windowErrors = 0;
  let total = 0;
  const ops = [
    () => call('POST', '/items/soak', token, { title: `t${total}` }),
    () => call('GET', '/items/soak?limit=20&sort=-id', token),
    () => call('GET', '/revisions?limit=20&sort=-id', token),
    () => call('POST', '/auth/login', undefined, ADMIN),
  ];
  const end = Date.now() + MINUTES * 60_000;
  const client = async (i: number) => {
    for (let n = i; Date.now() < end; n++) {
      const t = performance.now();
      try {
        const r = await ops[n % ops.length]();
        await r.arrayBuffer();
        if (r.status >= 400) throw new Error(`status ${r.status}`);
      } catch {
        errors++;
        windowErrors++;
      }
      total++;
      window.push(performance.now() - t);
    }
  };
  const first: Record<string, number | undefined> = {};
  const firstHeap: Record<string, number | undefined> = {};
  const started = Date.now();
  const rows: string[] = [];
  const heapRows: string[] = [];
  const report = async () => {
    const sorted = window.sort((a, b) => a - b);
    const p99 = sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] : 0;
    const rss = Object.fromEntries(Object.entries(pids()).map(([k, pid]) => [k, rssMb(pid)]));
    for (const [k, v] of Object.entries(rss)) first[k] ??= v;
    const load = loadavg()[0].toFixed(1);
    const [count, errs, s] = [window.length, windowErrors, Math.round((Date.now() - started) / 1000)];
    window = [];
    windowErrors = 0;
    const heap = await heapMb();
    for (const [k, v] of Object.entries(heap)) firstHeap[k] ??= v;
    console.log(
      `${new Date().toISOString()} requests ${count} (total ${total}) errors ${errs} (total ${errors}) p99 ${p99.toFixed(1)} ms  load ${load}  RSS MB ${JSON.stringify(rss)}  heap MB ${JSON.stringify(heap)}`,
    );
    if (rows.length === 0)
      rows.push(`| s | requests | errors | p99 ms | load | ${Object.keys(rss).join(' | ')} |`, `|${'---|'.repeat(5 + Object.keys(rss).length)}`);
    rows.push(`| ${s} | ${count} | ${errs} | ${p99.toFixed(0)} | ${load} | ${Object.values(rss).join(' | ')} |`);
    if (heapRows.length === 0) heapRows.push(`| s | ${Object.keys(heap).join(' | ')} |`, `|${'---|'.repeat(1 + Object.keys(heap).length)}`);
    heapRows.push(`| ${s} | ${Object.values(heap).join(' | ')} |`);
    return { rss, heap };
  };
  await report();
  const timer = setInterval(() => void report(), 30_000);
  await Promise.all(Array.from({ length: CLIENTS }, (_, i) => client(i)));
  clearInterval(timer);
  const last = await report();
  console.log(`\nRSS in MB per process, per 30 s window:\n${rows.join('\n')}\n`);
  console.log(`V8 heap in use, MB:\n${heapRows.join('\n')}\n`);
  const growth = (now: Record<string, number | undefined>, from: Record<string, number | undefined>) =>
    Object.entries(now)
      .map(([k, v]) => `${k} ${from[k]} → ${v} (${(v ?? 0) - (from[k] ?? 0) >= 0 ? '+' : ''}${(v ?? 0) - (from[k] ?? 0)})`)
      .join(', ');
  console.log('RSS growth (MB, first → last):', growth(last.rss, first));
  console.log('heap growth (MB, first → last):', growth(last.heap, firstHeap));
  stop();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
