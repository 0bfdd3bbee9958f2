// npm run bench:stream — GET /revisions/stream at scale on the embedded platform (bench/serve-stream.ts, its own
// process): STREAM_SUBSCRIBERS (1,000) subscribers through the gateway, of mixed roles (10% admin, 40% a role reading
// the collection, 30% a role reading only its title, 20% a role reading another collection), while STREAM_RATE
// (100) item writes per second go on for STREAM_SECONDS (20). Reports the feed's database reads per revision, the
// revision's commit (the revisions writer's notice after its COMMIT, seen in the platform's process) → event delivered
// (p50/p99/max over every subscriber and revision), deliveries against what each role may see, and the platform's
// memory per idle subscriber, and the platform process's CPU per delivery (its CPU over the writes ÷ events delivered;
// it serves the writes too). STREAM_BASE=<checkout> (a `git archive` with `node_modules` and the generated clients)
// runs that checkout's bench/serve-stream.ts the same way in STREAM_ROUNDS (default 3 with a base, else 1)
// interleaved rounds (ABBA…), and prints this ÷ base per round.
import { fork, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import { cpuUs } from './proc-cpu';

const SUBSCRIBERS = Number(process.env.STREAM_SUBSCRIBERS ?? 1000);
const RATE = Number(process.env.STREAM_RATE ?? 100);
const SECONDS = Number(process.env.STREAM_SECONDS ?? 20);
const ITEMS = 100;
const BASE = process.env.STREAM_BASE ? path.resolve(process.env.STREAM_BASE) : undefined;
const ROUNDS = Number(process.env.STREAM_ROUNDS ?? (BASE ? 3 : 1));

interface Stats {
  rss: number;
  heapUsed: number;
  streams: number;
  reads: number;
  revisions: number;
}

/** One platform (a checkout's bench/serve-stream.ts) in its own process, and how to ask it for its figures. */
function servePlatform(tree: string) {
  const child = fork(path.join(tree, 'bench', 'serve-stream.ts'), [], {
    cwd: tree,
    // STREAM_PROFILE=<dir>: a CPU profile of the platform's process (bench/profile-summary.ts reads it)
    execArgv: ['--expose-gc', '--import', 'tsx', ...(process.env.STREAM_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.STREAM_PROFILE}`] : [])],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = <T>() => new Promise<T>((resolve) => child.once('message', (m) => resolve(m as T)));
  const stats = () => {
    const p = next<Stats>();
    child.send('stats');
    return p;
  };
  return { child, next, stats };
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))] ?? NaN;

async function call(base: string, method: string, url: string, token: string | undefined, body?: unknown) {
  const r = await fetch(base + url, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  if (!r.ok) throw new Error(`${method} ${url} → ${r.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : undefined;
}

/**
 * One subscriber that reads only what the figures need — each event's id, when it arrived — with no general parsing
 * (the client shares the machine's two cores with the platform).
 */
function subscribe(url: string, token: string, onId: (id: number) => void): Promise<http.ClientRequest> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers: { accept: 'text/event-stream', authorization: `Bearer ${token}` } }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`a stream was refused: ${res.statusCode}`));
      res.setEncoding('utf8');
      let rest = '';
      res.on('data', (chunk: string) => {
        const text = rest + chunk;
        const end = text.lastIndexOf('\n\n');
        if (end === -1) return void (rest = text);
        rest = text.slice(end + 2);
        // an event's id line starts the text or follows a newline (a JSON data line holds no newline)
        for (let i = text.indexOf('id: '); i !== -1 && i < end; i = text.indexOf('id: ', i + 4)) {
          if (i === 0 || text.charCodeAt(i - 1) === 10) onId(Number(text.slice(i + 4, text.indexOf('\n', i))));
        }
      });
      res.on('error', () => undefined);
      resolve(req);
    });
    req.on('error', () => undefined);
  });
}

async function round(tree: string) {
  const { child, next, stats } = servePlatform(tree);
  const { url } = await next<{ url: string }>();
  const admin = (await call(url, 'POST', '/auth/login', undefined, { email: 'bench@example.com', password: 'bench-password-1' })).data.access_token as string;
  const fields = [
    { field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true } },
    { field: 'title', type: 'string' },
    { field: 'n', type: 'integer' },
  ];
  await call(url, 'POST', '/collections', admin, { collection: 'bench_items', meta: null, schema: {}, fields });
  await call(url, 'POST', '/collections', admin, { collection: 'bench_other', meta: null, schema: {}, fields });
  await call(
    url,
    'POST',
    '/items/bench_items',
    admin,
    Array.from({ length: ITEMS }, (_, i) => ({ title: `item ${i}`, n: 0 })),
  );
  // the roles, one user each
  const tokens: Record<string, string> = { admin };
  for (const [name, collection, allowed] of [
    ['full', 'bench_items', ['*']],
    ['title', 'bench_items', ['id', 'title']],
    ['other', 'bench_other', ['*']],
  ] as const) {
    const role = (await call(url, 'POST', '/roles', admin, { name: `stream ${name}`, app_access: true })).data.id as string;
    await call(url, 'POST', '/permissions', admin, { role, collection, action: 'read', fields: allowed });
    const email = `stream-${name}@example.com`;
    await call(url, 'POST', '/users', admin, { email, password: 'stream-password-1', role, status: 'active' });
    tokens[name] = (await call(url, 'POST', '/auth/login', undefined, { email, password: 'stream-password-1' })).data.access_token as string;
  }
  const roleOf = (i: number) => (i % 10 === 0 ? 'admin' : i % 10 <= 4 ? 'full' : i % 10 <= 7 ? 'title' : 'other');
  await sleep(1500); // the permissions reach the revisions service's watched copy

  const idle = await stats();
  const received: [id: number, at: number][] = [];
  const delivered: Record<string, number> = { admin: 0, full: 0, title: 0, other: 0 };
  const streams: http.ClientRequest[] = [];
  for (let i = 0; i < SUBSCRIBERS; i += 50) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(50, SUBSCRIBERS - i) }, (_, k) => {
        const role = roleOf(i + k);
        return subscribe(`${url}/revisions/stream?fields=id,data`, tokens[role]!, (id) => {
          delivered[role]!++;
          received.push([id, Date.now()]);
        });
      }),
    );
    streams.push(...batch);
  }
  await sleep(2000);
  const open = await stats();

  console.log(`${SUBSCRIBERS} subscribers open; ${RATE} writes/s for ${SECONDS} s…`);
  const before = await stats();
  const cpuBefore = cpuUs(child.pid);
  let sent = 0;
  let failed = 0;
  const writes: Promise<void>[] = [];
  const start = Date.now();
  while (Date.now() - start < SECONDS * 1000) {
    const due = Math.floor(((Date.now() - start) / 1000) * RATE);
    for (; sent < due; sent++) {
      const title = `w${sent}`;
      const id = (sent % ITEMS) + 1;
      writes.push(
        call(url, 'PATCH', `/items/bench_items/${id}`, admin, { title, n: sent }).then(
          () => undefined,
          () => void failed++,
        ),
      );
    }
    await sleep(2);
  }
  await Promise.all(writes);
  await sleep(3000);
  const cpu = cpuUs(child.pid) - cpuBefore;
  const after = await stats();
  const committed = await new Promise<Record<number, number>>((resolve) => {
    child.once('message', (m) => resolve(m as Record<number, number>));
    child.send('commits');
  });
  const fromCommit = received.filter(([id]) => committed[id] !== undefined).map(([id, at]) => at - committed[id]!);
  fromCommit.sort((a, b) => a - b);
  streams.forEach((s) => s.destroy());
  await stop(child);

  const revisions = after.revisions - before.revisions;
  const reads = after.reads - before.reads;
  const seeing = SUBSCRIBERS - Math.ceil(SUBSCRIBERS * 0.2);
  const per = (bytes: number) => `${(bytes / SUBSCRIBERS / 1024).toFixed(1)} KiB`;
  return {
    subscribers: SUBSCRIBERS,
    writes: { sent, failed, perSecond: +(sent / SECONDS).toFixed(1) },
    feed: { revisions, reads, readsPerRevision: +(reads / Math.max(1, revisions)).toFixed(3) },
    commitToDeliveryMs: { p50: pct(fromCommit, 50), p99: pct(fromCommit, 99), max: fromCommit.at(-1), samples: fromCommit.length },
    deliveries: { received: received.length, expected: (sent - failed) * seeing },
    deliveredByRole: delivered,
    // the platform process's CPU from the first write until 3 s after the last, per event delivered
    cpuPerDeliveryUs: +(cpu / Math.max(1, received.length)).toFixed(2),
    memoryPerIdleSubscriber: { rss: per(open.rss - idle.rss), heap: per(open.heapUsed - idle.heapUsed) },
    streamsOpen: open.streams,
  };
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.send('stop');
  });
}

async function main() {
  const here = path.resolve(__dirname, '..');
  const load = () =>
    os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' ');
  const ratios: { cpu: number; p50: number; p99: number }[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    // ABBA: each checkout goes first in every other round
    const arms: [string, string][] = BASE
      ? r % 2 === 0
        ? [
            ['this', here],
            ['base', BASE],
          ]
        : [
            ['base', BASE],
            ['this', here],
          ]
      : [['this', here]];
    const out: Record<string, Awaited<ReturnType<typeof round>>> = {};
    for (const [name, tree] of arms) {
      console.log(`round ${r + 1} ${name}: load average ${load()}`);
      out[name] = await round(tree);
      console.log(JSON.stringify({ round: r + 1, arm: name, ...out[name] }, null, 2));
    }
    const [t, b] = [out.this!, out.base];
    const line = (x: typeof t) =>
      `CPU/delivery ${x.cpuPerDeliveryUs} µs, p50 ${x.commitToDeliveryMs.p50} ms, p99 ${x.commitToDeliveryMs.p99} ms, refused ${x.writes.failed}`;
    console.log(`round ${r + 1}: this ${line(t)}${b ? `; base ${line(b)}` : ''}; load average ${load()}`);
    if (b) {
      ratios.push({
        cpu: t.cpuPerDeliveryUs / b.cpuPerDeliveryUs,
        p50: t.commitToDeliveryMs.p50 / b.commitToDeliveryMs.p50,
        p99: t.commitToDeliveryMs.p99 / b.commitToDeliveryMs.p99,
      });
      const q = ratios.at(-1)!;
      console.log(`round ${r + 1} this ÷ base: CPU per delivery ${q.cpu.toFixed(2)}, p50 ${q.p50.toFixed(2)}, p99 ${q.p99.toFixed(2)}`);
    }
  }
  if (ratios.length) {
    const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!.toFixed(2);
    console.log(
      `median this ÷ base: CPU per delivery ${med(ratios.map((x) => x.cpu))}, p50 ${med(ratios.map((x) => x.p50))}, p99 ${med(ratios.map((x) => x.p99))}`,
    );
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
