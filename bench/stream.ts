// npm run bench:stream — GET /revisions/stream at scale on the embedded platform (bench/serve-stream.ts, its own
// process): STREAM_SUBSCRIBERS (1,000) subscribers through the gateway, of mixed roles (10% admin, 40% a role reading
// the collection, 30% a role reading only its title, 20% a role reading another collection), while STREAM_RATE
// (100) item writes per second go on for STREAM_SECONDS (20). Reports the feed's database reads per revision, the
// revision's commit (the revisions writer's notice after its COMMIT, seen in the platform's process) → event delivered
// (p50/p99/max over every subscriber and revision), deliveries against what each role may see, and the platform's
// memory per idle subscriber.
import { fork } from 'node:child_process';
import path from 'node:path';
import http from 'node:http';

const SUBSCRIBERS = Number(process.env.STREAM_SUBSCRIBERS ?? 1000);
const RATE = Number(process.env.STREAM_RATE ?? 100);
const SECONDS = Number(process.env.STREAM_SECONDS ?? 20);
const ITEMS = 100;

interface Stats {
  rss: number;
  heapUsed: number;
  streams: number;
  reads: number;
  revisions: number;
}

const child = fork(path.join(__dirname, 'serve-stream.ts'), [], {
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

async function main() {
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
  const after = await stats();
  const committed = await new Promise<Record<number, number>>((resolve) => {
    child.once('message', (m) => resolve(m as Record<number, number>));
    child.send('commits');
  });
  const fromCommit = received.filter(([id]) => committed[id] !== undefined).map(([id, at]) => at - committed[id]!);
  fromCommit.sort((a, b) => a - b);
  streams.forEach((s) => s.destroy());
  child.send('stop');

  const revisions = after.revisions - before.revisions;
  const reads = after.reads - before.reads;
  const seeing = SUBSCRIBERS - Math.ceil(SUBSCRIBERS * 0.2);
  const per = (bytes: number) => `${(bytes / SUBSCRIBERS / 1024).toFixed(1)} KiB`;
  console.log(
    JSON.stringify(
      {
        subscribers: SUBSCRIBERS,
        writes: { sent, failed, perSecond: +(sent / SECONDS).toFixed(1) },
        feed: { revisions, reads, readsPerRevision: +(reads / Math.max(1, revisions)).toFixed(3) },
        commitToDeliveryMs: { p50: pct(fromCommit, 50), p99: pct(fromCommit, 99), max: fromCommit.at(-1), samples: fromCommit.length },
        deliveries: { received: received.length, expected: (sent - failed) * seeing },
        deliveredByRole: delivered,
        memoryPerIdleSubscriber: { rss: per(open.rss - idle.rss), heap: per(open.heapUsed - idle.heapUsed) },
        streamsOpen: open.streams,
      },
      null,
      2,
    ),
  );
}

main().catch((e) => {
  console.error(e);
  child.kill();
  process.exit(1);
});
