import { spawn } from 'node:child_process';
import path from 'node:path';
import { Client } from 'pg';

/** A server the write bench loads: a platform of one checkout, or the floor. */
export interface WriteTarget {
  name: string;
  /** Base URL of the bench collection's items: `<gateway>/items/bench_items`. */
  itemsUrl: string;
  /** `<gateway>/versions`, and the ids of the versions the version scenario saves (one per draft item). */
  versionsUrl: string;
  versionIds: string[];
  pid: number;
  headers: Record<string, string>;
  /** The databases whose backends do its work. */
  databases: string[];
  /** Platforms: their items and revisions databases (the floor has none: it records history in the write). */
  databaseUrls?: { items: string; revisions: string };
  stop(): void;
}

/** A child process that prints a line starting with `ready ` once ready (its log lines pass through); resolves with the rest. */
function spawnReady(args: string[], cwd: string): Promise<{ line: string; pid: number; stop: () => void }> {
  const child = spawn(process.execPath, args, { cwd, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.once('exit', (c) => reject(new Error(`${args.join(' ')}: exit ${c}`)));
    let out = '';
    let ready = false;
    child.stdout.on('data', (d) => {
      if (ready) return void process.stderr.write(d);
      out += d;
      for (let nl = out.indexOf('\n'); nl >= 0 && !ready; nl = out.indexOf('\n')) {
        const line = out.slice(0, nl);
        out = out.slice(nl + 1);
        if (line.startsWith('ready ')) {
          ready = true;
          resolve({ line: line.slice(6), pid: child.pid!, stop: () => child.kill('SIGKILL') });
        } else process.stderr.write(`${line}\n`);
      }
    });
  });
}

/** The embedded platform of checkout `tree` in its own process (bench/serve-writes.ts), over databases of its own. */
export async function startPlatformTarget(name: string, tree: string): Promise<WriteTarget> {
  // WB_NODE_FLAGS_NEW / WB_NODE_FLAGS_BASE: Node's own flags for that platform's process (e.g. one runtime setting against none)
  const flags = (process.env[`WB_NODE_FLAGS_${name.toUpperCase()}`] ?? '').split(' ').filter(Boolean);
  const c = await spawnReady([...flags, '--import', 'tsx', path.join(__dirname, 'serve-writes.ts'), tree, name], tree);
  const ready = JSON.parse(c.line) as { url: string; token: string; versionIds?: string[]; databaseUrls: { items: string; revisions: string; auth: string } };
  return {
    name,
    itemsUrl: `${ready.url}/items/bench_items`,
    versionsUrl: `${ready.url}/versions`,
    // a checkout from before the nested and version scenarios has none (those scenarios then fail for it)
    versionIds: ready.versionIds ?? [],
    pid: c.pid,
    headers: { authorization: `Bearer ${ready.token}` },
    databases: Object.values(ready.databaseUrls).map((u) => new URL(u).pathname.slice(1)),
    databaseUrls: ready.databaseUrls,
    stop: c.stop,
  };
}

/** The floor (bench/floor-writes.mjs) in its own process, over a fresh database of its own on `server`. */
export async function startFloorTarget(server: string, items: number, drafts: number): Promise<WriteTarget> {
  const database = 'vellum_floor_writes';
  const admin = new Client({ connectionString: server });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${database}`);
  await admin.end();
  const url = new URL(server);
  url.pathname = `/${database}`;
  const c = await spawnReady([path.join(__dirname, 'floor-writes.mjs'), url.toString(), String(items)], process.cwd());
  const base = `http://127.0.0.1:${c.line.trim()}`;
  return {
    name: 'floor',
    itemsUrl: `${base}/items/bench_items`,
    versionsUrl: `${base}/versions`,
    versionIds: Array.from({ length: drafts }, (_, k) => String(k + 1)),
    pid: c.pid,
    headers: {},
    databases: [database],
    stop: c.stop,
  };
}

/** Items whose revision is not recorded yet: the items outbox's unpublished rows (embedded: marked once recorded). */
export async function historyBacklog(items: Client): Promise<{ rows: number; oldestMs: number }> {
  const { rows } = await items.query<{ n: string; age: number | null }>(
    `SELECT count(*) AS n, extract(epoch FROM clock_timestamp() - min(created_at))::float8 * 1000 AS age FROM outbox WHERE published_at IS NULL`,
  );
  return { rows: Number(rows[0]!.n), oldestMs: Math.round(rows[0]!.age ?? 0) };
}

/** Waits until every acknowledged write has its revision (the backlog is empty); the ms it took. */
export async function waitForHistory(items: Client, timeoutMs = 120_000): Promise<number> {
  const t0 = Date.now();
  while ((await historyBacklog(items)).rows > 0) {
    if (Date.now() - t0 > timeoutMs) throw new Error(`history still behind after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
  return Date.now() - t0;
}
