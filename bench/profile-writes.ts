// Where a write's time goes (issue 41): the embedded platform of this checkout IN THIS PROCESS (run it under
// `node --cpu-prof --cpu-prof-dir=.cache/profiles --import tsx bench/profile-writes.ts` for a CPU profile, then
// `bench/profile-summary.ts <file> 60 <from> <to>`), PROFILE_MODE (one: PATCH /items/:c/:id, create: POST, many:
// batch PATCH of 100, nested: POST with 2 notes, version: POST /versions/:id/save) from 8 connections for
// PROFILE_SECONDS (10) after 2 s of warm-up; every statement any pool sends is counted (pg's Client#query wrapped,
// bench only) from the load's start until the history caught up, and printed per write by database and statement,
// with the process's CPU per write and each database's shared buffers per write (pages visited: unlike CPU time,
// the same on a loaded machine as on a quiet one).
import pg from 'pg';
import { Client } from 'pg';
import { cpuUs, procSwitches, procSyscalls } from './proc-cpu';
import { writeLoad, type WriteLoad } from './write-load';
import { waitForHistory } from './write-targets';
import { startWritesPlatform } from './writes-platform';

const SERVER = process.env.BENCH_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/postgres';
const SECONDS = Number(process.env.PROFILE_SECONDS ?? 10);
const MODE = (process.env.PROFILE_MODE ?? 'one') as WriteLoad['mode'];

const counts = new Map<string, number>();
/** wall ms from send to answer, per statement (the database's time plus the wait behind the connection's queue) */
const wallMs = new Map<string, number>();
/**
 * Round trips per database: a statement sent while none is in flight on its connection waits for the server once
 * more; one sent behind another (a pipelined connection) rides in the same round trip.
 */
const roundTrips = new Map<string, number>();
const inFlight = new WeakMap<object, number>();
let counting = false;
const proto = pg.Client.prototype as unknown as { query: (...a: unknown[]) => unknown };
const original = proto.query;
proto.query = function (this: { connectionParameters?: { database?: string } }, ...args: unknown[]) {
  if (counting) {
    const c = args[0] as string | { text?: string; name?: string };
    const text = (typeof c === 'string' ? c : (c?.text ?? c?.name ?? '?')).replace(/\s+/g, ' ').trim().slice(0, 110);
    const key = `${(this.connectionParameters?.database ?? '?').replace(/^vellum_(\w+?)_writes_.*/, '$1')}  ${text}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
    const db = key.split('  ')[0]!;
    const busy = inFlight.get(this) ?? 0;
    if (busy === 0) roundTrips.set(db, (roundTrips.get(db) ?? 0) + 1);
    inFlight.set(this, busy + 1);
    const t0 = performance.now();
    const done = () => {
      inFlight.set(this, (inFlight.get(this) ?? 1) - 1);
      wallMs.set(key, (wallMs.get(key) ?? 0) + performance.now() - t0);
    };
    // pg-pool's query hands a callback; a client's query a promise
    const last = args.length - 1;
    const cb = args[last];
    if (typeof cb === 'function')
      args[last] = (...a: unknown[]) => {
        done();
        return (cb as (...x: unknown[]) => unknown)(...a);
      };
    const r = original.apply(this, args) as Promise<unknown> | undefined;
    if (typeof cb !== 'function' && r && typeof r.then === 'function') r.then(done, done);
    return r;
  }
  return original.apply(this, args);
};

/** Read / write system calls so far of each backend met by backendsByRole (the last time it looked). */
const backendSyscalls = new Map<number, { reads: number; writes: number; switches: number }>();

/** CPU µs so far of each backend of `databases`, by database and application name (the pool or process it serves). */
async function backendsByRole(admin: Client, databases: string[]): Promise<Map<string, Map<number, number>>> {
  const { rows } = await admin.query<{ pid: number; datname: string; app: string }>(
    `SELECT pid, datname, application_name AS app FROM pg_stat_activity WHERE datname = ANY($1::text[])`,
    [databases],
  );
  const out = new Map<string, Map<number, number>>();
  for (const r of rows) {
    const role = `${r.datname.replace(/^vellum_(\w+?)_writes_.*/, '$1')}/${r.app || 'pool'}`;
    const us = cpuUs(r.pid);
    if (Number.isFinite(us)) (out.get(role) ?? out.set(role, new Map()).get(role)!).set(r.pid, us);
    const sys = procSyscalls(r.pid);
    if (Number.isFinite(sys.reads)) backendSyscalls.set(r.pid, { ...sys, switches: procSwitches(r.pid) });
  }
  return out;
}

/**
 * Shared buffers each database's backends touched so far (hit or read: the pages a statement visits, whatever the
 * machine's load — a count that does not move with the noise CPU time does).
 */
async function buffersByDatabase(admin: Client, databases: string[]): Promise<Map<string, number>> {
  await admin.query('SELECT pg_stat_clear_snapshot()');
  const { rows } = await admin.query<{ db: string; n: string }>(
    `SELECT datname AS db, (blks_hit + blks_read)::text AS n FROM pg_stat_database WHERE datname = ANY($1::text[])`,
    [databases],
  );
  return new Map(rows.map((r) => [r.db.replace(/^vellum_(\w+?)_writes_.*/, '$1'), Number(r.n)]));
}

(async () => {
  const p = await startWritesPlatform(process.cwd(), 'profile', SERVER, 2000);
  const items = new Client({ connectionString: p.databaseUrls.items });
  await items.connect();
  const load = {
    url: MODE === 'version' ? `${p.url}/versions` : `${p.url}/items/bench_items`,
    // the versions only for their mode: a list of ids sets every mode's slices (200 ids / 8 would overlap batches of 100)
    ids: MODE === 'version' ? p.versionIds : undefined,
    mode: MODE,
    connections: 8,
    idFrom: MODE === 'many' ? 1000 : 1,
    idTo: MODE === 'many' ? 2000 : 1000,
    batch: MODE === 'nested' ? 3 : 100,
    headers: { authorization: `Bearer ${p.token}` },
  };
  await writeLoad({ ...load, seconds: 2 });
  await waitForHistory(items);
  const admin = new Client({ connectionString: SERVER });
  await admin.connect();
  const dbs = Object.values(p.databaseUrls).map((u) => new URL(u).pathname.slice(1));
  const backends0 = await backendsByRole(admin, dbs);
  const buffers0 = await buffersByDatabase(admin, dbs);
  const sys0 = new Map(backendSyscalls);
  const c0 = cpuUs(process.pid);
  const io0 = procSyscalls(process.pid);
  const sw0 = procSwitches(process.pid);
  const t0 = performance.now();
  counting = true;
  const x = await writeLoad({ ...load, seconds: SECONDS });
  const drain = await waitForHistory(items);
  counting = false;
  const cpu = (cpuUs(process.pid) - c0) / Math.max(1, x.writes);
  const io1 = procSyscalls(process.pid);
  const sw1 = procSwitches(process.pid);
  const backends1 = await backendsByRole(admin, dbs);
  // the statistics reach pg_stat_database when a backend goes idle (at most 500 ms later)
  await new Promise((r) => setTimeout(r, 1000));
  const buffers1 = await buffersByDatabase(admin, dbs);
  await admin.end();
  console.log(
    `${MODE}: ${Math.round(x.writes / SECONDS)} writes/s, p99 ${x.p99} ms, ${JSON.stringify(x.status)}; history +${drain} ms; process CPU ${(cpu / 1000).toFixed(2)} ms per write; loaded from ${(t0 / 1000).toFixed(1)} s to ${(performance.now() / 1000).toFixed(1)} s of the profile`,
  );
  const byDb = new Map<string, number>();
  for (const [k, n] of counts) byDb.set(k.split('  ')[0]!, (byDb.get(k.split('  ')[0]!) ?? 0) + n);
  console.log(`statements per write: ${[...byDb].map(([d, n]) => `${d} ${(n / x.writes).toFixed(2)}`).join(', ')}`);
  console.log(
    `shared buffers per write (hit or read): ${[...buffers1].map(([db, n]) => `${db} ${((n - (buffers0.get(db) ?? n)) / x.writes).toFixed(1)}`).join(', ')}`,
  );
  console.log(`round trips per write: ${[...roundTrips].map(([d, n]) => `${d} ${(n / x.writes).toFixed(2)}`).join(', ')}`);
  const pgPerWrite = [...backends1].map(([role, b]) => {
    let us = 0;
    for (const [pid, t] of b) us += t - (backends0.get(role)?.get(pid) ?? 0);
    return [role, us / Math.max(1, x.writes)] as const;
  });
  console.log(
    `PostgreSQL CPU per write ${(pgPerWrite.reduce((a, [, us]) => a + us, 0) / 1000).toFixed(2)} ms: ${pgPerWrite
      .filter(([, us]) => us >= 1)
      .sort((a, b) => b[1] - a[1])
      .map(([role, us]) => `${role} ${Math.round(us)} µs`)
      .join(', ')}`,
  );
  // each socket write is a system call (and wakes the peer): the process's, and PostgreSQL's backends' reads of them
  let pgReads = 0;
  let pgWrites = 0;
  let pgSwitches = 0;
  for (const [pid, s1] of backendSyscalls) {
    const s0 = sys0.get(pid) ?? { reads: 0, writes: 0, switches: 0 };
    pgReads += s1.reads - s0.reads;
    pgWrites += s1.writes - s0.writes;
    pgSwitches += s1.switches - s0.switches;
  }
  const per = (n: number) => (n / Math.max(1, x.writes)).toFixed(2);
  console.log(
    `system calls per write: process writes ${per(io1.writes - io0.writes)} (reads ${per(io1.reads - io0.reads)}); PostgreSQL backends reads ${per(pgReads)}, writes ${per(pgWrites)}`,
  );
  console.log(`context switches per write: process ${per(sw1 - sw0)}, PostgreSQL backends ${per(pgSwitches)}`);
  console.log('per write: statements, wall ms of them (sent → answered), statement');
  for (const [k, n] of [...counts].sort((a, b) => b[1] - a[1]).slice(0, 40))
    console.log(`${(n / x.writes).toFixed(3).padStart(8)} ${((wallMs.get(k) ?? 0) / x.writes).toFixed(3).padStart(8)}  ${k}`);
  await items.end();
  await p.stop();
  process.exit(0);
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
