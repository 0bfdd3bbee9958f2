// node --import tsx bench/write-history-distributed.ts: the history under a write load in the DISTRIBUTED topology
// (`npm run start:distributed`: every service its own process, its own nats-server from PATH, an embedded
// PostgreSQL, `REVISIONS_REPLICAS` (2) revisions replicas sharing the durable consumer), in a temporary DATA_DIR.
// The highest sustained PATCH rate (closed loop, 8 connections, WB_SECONDS (5)), then PATCH open-loop at it and at half
// of it for WB_HISTORY_SECONDS (bench/write-history.ts): each second the changes not recorded yet (item-change rows of
// the items outbox − revisions of the collection) and, after the slash, the outbox rows not yet handed to JetStream;
// ack → revision readable p50/p99 of a probe item. Everything the script started is killed (process group) at the end.
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { freePort } from './distributed';
import { historyUnderLoad } from './write-history';
import { writeLoad } from './write-load';
import type { WriteTarget } from './write-targets';
import { ADMIN, BENCH_COLLECTION, call } from './writes-platform';

const ITEMS = Number(process.env.WB_ITEMS ?? 2000);
const SECONDS = Number(process.env.WB_SECONDS ?? 5);
const REPLICAS = process.env.REVISIONS_REPLICAS ?? '2';
const ROOT = path.resolve(__dirname, '..');

(async () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'vellum-dist-writes-'));
  chmodSync(dataDir, 0o755); // the embedded PostgreSQL runs as the postgres user when started by root
  const [port, dbPort] = [await freePort(), await freePort()];
  const child = spawn(process.execPath, ['--import', 'tsx', 'deploy/local/src/distributed/main.ts'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATA_DIR: dataDir,
      PORT: String(port),
      EMBEDDED_DB_PORT: String(dbPort),
      REVISIONS_REPLICAS: REPLICAS,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      RATE_LIMITER_ENABLED: 'false',
      LOGIN_STALL_TIME: '0',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
  });
  let exited = false;
  child.once('exit', () => (exited = true));
  const signal = (s: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, s);
    } catch {
      // gone already
    }
  };
  // SIGTERM first: start:distributed stops the services it supervises (their own process groups), then SIGKILL
  const stop = async () => {
    signal('SIGTERM');
    for (const end = Date.now() + 60_000; !exited && Date.now() < end;) await new Promise((r) => setTimeout(r, 100));
    signal('SIGKILL');
  };
  process.on('exit', () => signal('SIGKILL'));
  try {
    const stateFile = path.join(dataDir, 'distributed.json');
    const until = Date.now() + 240_000;
    let url = '';
    while (!url) {
      if (Date.now() > until || exited) throw new Error('start:distributed did not come up');
      if (existsSync(stateFile)) url = (JSON.parse(readFileSync(stateFile, 'utf8')) as { url: string }).url;
      await new Promise((r) => setTimeout(r, 500));
    }
    const db = (name: string) => `postgres://postgres:postgres@127.0.0.1:${dbPort}/vellum_${name}`;
    const token = (await call(url, 'POST', '/auth/login', undefined, ADMIN)).data.access_token as string;
    await call(url, 'POST', '/collections', token, BENCH_COLLECTION);
    for (let i = 0; i < ITEMS; i += 500) {
      const batch = Array.from({ length: Math.min(500, ITEMS - i) }, (_, k) => ({ title: `item ${i + k + 1}`, n: 0 }));
      await call(url, 'POST', '/items/bench_items', token, batch);
    }
    const items = new Client({ connectionString: db('items') });
    const rev = new Client({ connectionString: db('revisions') });
    await items.connect();
    await rev.connect();
    /** Item changes not recorded yet (outbox rows of the collection − its revisions), and outbox rows not handed to JetStream. */
    const behind = async () => {
      // the revisions first: a write between the two reads then counts as behind, never as recorded twice
      const r = await rev.query<{ n: string }>(`SELECT count(*) AS n FROM revisions WHERE collection = 'bench_items'`);
      const o = await items.query<{ n: string; u: string }>(
        `SELECT count(*) AS n, count(*) FILTER (WHERE published_at IS NULL) AS u FROM outbox WHERE subject LIKE 'items.bench_items.%'`,
      );
      return { unrecorded: Number(o.rows[0]!.n) - Number(r.rows[0]!.n), unpublished: Number(o.rows[0]!.u) };
    };
    const drained = async () => {
      const t0 = Date.now();
      while ((await behind()).unrecorded > 0) {
        if (Date.now() - t0 > 120_000) throw new Error('history still behind after 120 s');
        await new Promise((r) => setTimeout(r, 10));
      }
      return Date.now() - t0;
    };
    console.log(`distributed topology (${REPLICAS} revisions replicas, NATS JetStream), seeded; catching up: ${await drained()} ms`);
    const target: WriteTarget = {
      name: 'distributed',
      itemsUrl: `${url}/items/bench_items`,
      versionsUrl: `${url}/versions`,
      versionIds: [], // PATCH only here
      pid: child.pid!,
      headers: { authorization: `Bearer ${token}` },
      databases: [],
      databaseUrls: { items: db('items'), revisions: db('revisions') },
      stop: () => void stop(),
    };
    const x = await writeLoad({ url: target.itemsUrl, mode: 'one', connections: 8, seconds: SECONDS, idFrom: 1, idTo: ITEMS / 2, headers: target.headers });
    const full = Math.round(x.writes / SECONDS);
    console.log(`closed loop, 8 connections, ${SECONDS} s: ${full} PATCH/s, p99 ${x.p99} ms, ${JSON.stringify(x.status)}; history +${await drained()} ms`);
    const backlog = async () => {
      const b = await behind();
      return `${b.unrecorded}/${b.unpublished}`;
    };
    await historyUnderLoad(target, items, { rate: full, label: 'distributed full (backlog: unrecorded/unpublished rows)', backlog, drained }, ITEMS);
    await historyUnderLoad(
      target,
      items,
      { rate: Math.round(full / 2), label: 'distributed half (backlog: unrecorded/unpublished rows)', backlog, drained },
      ITEMS,
    );
    const final = await behind();
    await items.end();
    await rev.end();
    console.log(`after the runs: ${final.unrecorded} changes unrecorded, ${final.unpublished} outbox rows unpublished`);
  } finally {
    await stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  process.exit(0);
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
