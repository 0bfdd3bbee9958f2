// Issue 41, "writes at the floor": the embedded platform (`npm start`'s one process, in its own process: CPU is its
// own) against a floor — bench/floor-writes.mjs, bare node:http + pg doing UPDATE … RETURNING * (or INSERT) and a
// revision row in one transaction on the same server — in WB_ROUNDS interleaved rounds of WB_SECONDS per scenario,
// WB_CONNECTIONS (8) connections, each writing its own items:
//   PATCH  PATCH /items/bench_items/:id            POST  POST /items/bench_items
//   batch  PATCH /items/bench_items {keys: 100 ids, data}  (ratio: items/s ÷ the same round's PATCH items/s)
//   nested POST /items/bench_items {…, notes: [2 notes]}  (41.5: 3 items per request, each with its revision)
//   version POST /versions/:id/save {n}                    (41.5: a content version's save and its revision)
// CPU per write = the serving process + its PostgreSQL backends, from the load's start until every acknowledged
// write has its revision (the history's work counts). WB_BASE=<checkout> adds that checkout's platform (e.g. the
// previous commit, with its own node_modules) to every round. Then, unless WB_HISTORY=0, the history under load:
// bench/write-history.ts at the highest sustained PATCH rate measured, at half of it and at WB_HISTORY_OVER (2) × it.
//   npm run bench:writes        (WB_ROUNDS=3 WB_SECONDS=5 WB_ONLY=PATCH,batch WB_ITEMS=2000 BENCH_DATABASE_URL=…)
import { Client } from 'pg';
import { backendCpu, backendCpuBetween } from './backend-cpu';
import { cpuUs } from './proc-cpu';
import { historyUnderLoad } from './write-history';
import { writeLoad, type WriteLoad } from './write-load';
import { startFloorTarget, startPlatformTarget, waitForHistory, type WriteTarget } from './write-targets';
import { DRAFTS } from './writes-platform';

const SERVER = process.env.BENCH_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/postgres';
const ROUNDS = Number(process.env.WB_ROUNDS ?? 3);
const SECONDS = Number(process.env.WB_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.WB_CONNECTIONS ?? 8);
const ITEMS = Number(process.env.WB_ITEMS ?? 2000);
const BATCH = 100;
/** The history run beyond the sustained rate: offered at this multiple of it (0: skipped). */
const OVER = Number(process.env.WB_HISTORY_OVER ?? 2);
const half = Math.floor(ITEMS / 2);

interface Scenario {
  name: 'PATCH' | 'POST' | 'batch' | 'nested' | 'version';
  load: Omit<WriteLoad, 'url' | 'seconds' | 'headers'>;
}
const SCENARIOS: Scenario[] = (
  [
    { name: 'PATCH', load: { mode: 'one', connections: CONNECTIONS, idFrom: 1, idTo: half } },
    { name: 'POST', load: { mode: 'create', connections: CONNECTIONS, idFrom: 1, idTo: half } },
    { name: 'batch', load: { mode: 'many', connections: CONNECTIONS, idFrom: half, idTo: ITEMS, batch: BATCH } },
    { name: 'nested', load: { mode: 'nested', connections: CONNECTIONS, idFrom: 1, idTo: half, batch: 3 } },
    { name: 'version', load: { mode: 'version', connections: CONNECTIONS, idFrom: 1, idTo: half } },
  ] as Scenario[]
).filter((s) => !process.env.WB_ONLY || process.env.WB_ONLY.split(',').includes(s.name));

interface Measured {
  wps: number;
  cpuUs: number;
  nodeUs: number;
  pgUs: number;
  p99: number;
  drainMs: number;
  writes: number;
  /** Requests answered 503 (the history's back-pressure). */
  refused: number;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s[(s.length - 1) >> 1]! + s[s.length >> 1]!) / 2 : NaN;
};

/** One run of a scenario against a target: writes/s over the load, CPU per write until its history caught up. */
async function measure(admin: Client, t: WriteTarget, s: Scenario, seconds: number, items?: Client): Promise<Measured> {
  const pg0 = await backendCpu(admin, t.databases);
  const node0 = cpuUs(t.pid);
  const target = s.load.mode === 'version' ? { url: t.versionsUrl, ids: t.versionIds } : { url: t.itemsUrl };
  const x = await writeLoad({ ...s.load, ...target, seconds, headers: t.headers });
  const drainMs = items ? await waitForHistory(items) : 0;
  const nodeUs = cpuUs(t.pid) - node0;
  const pgUs = backendCpuBetween(pg0, await backendCpu(admin, t.databases));
  // 503s of the history's back-pressure are counted (and printed), not failures; anything else is
  const refused = x.status['503'] ?? 0;
  const bad = x.requests - refused - x.writes / (s.load.batch ?? 1);
  if (bad > 0 || x.errors) throw new Error(`${t.name} ${s.name}: ${JSON.stringify(x.status)}, ${x.errors} errors`);
  const per = (us: number) => us / Math.max(1, x.writes);
  return { wps: x.writes / seconds, cpuUs: per(nodeUs + pgUs), nodeUs: per(nodeUs), pgUs: per(pgUs), p99: x.p99, drainMs, writes: x.writes, refused };
}

const fmt = (m: Measured) =>
  `${Math.round(m.wps)} w/s p99 ${m.p99} ms, CPU ${(m.cpuUs / 1000).toFixed(2)} ms/w (node ${(m.nodeUs / 1000).toFixed(2)} + pg ${(m.pgUs / 1000).toFixed(2)})${m.drainMs ? `, history +${m.drainMs} ms` : ''}${m.refused ? `, ${m.refused} × 503` : ''}`;

(async () => {
  const admin = new Client({ connectionString: SERVER });
  await admin.connect();
  const platforms = [await startPlatformTarget('new', process.env.WB_NEW ?? process.cwd())];
  if (process.env.WB_BASE) platforms.push(await startPlatformTarget('base', process.env.WB_BASE));
  const floor = await startFloorTarget(SERVER, ITEMS, DRAFTS);
  const targets = [floor, ...platforms];
  const itemsDb = new Map<WriteTarget, Client>();
  for (const p of platforms) {
    const c = new Client({ connectionString: p.databaseUrls!.items });
    await c.connect();
    itemsDb.set(p, c);
  }
  const acked = new Map<WriteTarget, number>(platforms.map((p) => [p, 0]));
  const results: Record<string, Record<string, Measured[]>> = {};
  try {
    for (const s of SCENARIOS)
      for (const t of targets) await measure(admin, t, s, 2, itemsDb.get(t)).then((m) => acked.has(t) && acked.set(t, acked.get(t)! + m.writes));
    console.log(
      `load average ${(await import('node:os'))
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}; ${ROUNDS} rounds × ${SECONDS} s, ${CONNECTIONS} connections`,
    );
    for (let round = 1; round <= ROUNDS; round++) {
      for (const s of SCENARIOS) {
        // the order turns every round, so no target always runs first or last
        const order = targets.map((_, i) => targets[(i + round) % targets.length]!);
        const r: Record<string, Measured> = {};
        for (const t of order) {
          const m = await measure(admin, t, s, SECONDS, itemsDb.get(t));
          if (acked.has(t)) acked.set(t, acked.get(t)! + m.writes);
          r[t.name] = m;
          ((results[s.name] ??= {})[t.name] ??= []).push(m);
        }
        const ratios = platforms.map(
          (p) => `${p.name}÷floor w/s ${(r[p.name]!.wps / r.floor!.wps).toFixed(2)} CPU ${(r[p.name]!.cpuUs / r.floor!.cpuUs).toFixed(2)}`,
        );
        const batch =
          s.name === 'batch' && results.PATCH
            ? platforms.map((p) => `${p.name} batch÷PATCH items/s ${(r[p.name]!.wps / results.PATCH![p.name]!.at(-1)!.wps).toFixed(1)}`)
            : [];
        console.log(`${s.name} round ${round}: ${targets.map((t) => `${t.name} ${fmt(r[t.name]!)}`).join(' | ')}\n  → ${[...ratios, ...batch].join('; ')}`);
      }
    }
    console.log('\nmedians of the rounds:');
    for (const s of SCENARIOS) {
      for (const p of platforms) {
        const rows = results[s.name]!;
        const w = median(rows[p.name]!.map((m, i) => m.wps / rows.floor![i]!.wps));
        const c = median(rows[p.name]!.map((m, i) => m.cpuUs / rows.floor![i]!.cpuUs));
        const extra =
          s.name === 'batch' && results.PATCH
            ? `, batch÷PATCH items/s ${median(rows[p.name]!.map((m, i) => m.wps / results.PATCH![p.name]![i]!.wps)).toFixed(1)}`
            : '';
        console.log(`  ${s.name} ${p.name}: ÷floor w/s ${w.toFixed(2)}, CPU per write ÷floor ${c.toFixed(2)}${extra}`);
      }
    }
    // every acknowledged write has exactly one revision (the seed's creates included; a nested POST writes 3 items,
    // a version save records one revision of its draft)
    for (const p of platforms) {
      const rev = new Client({ connectionString: p.databaseUrls!.revisions });
      await rev.connect();
      const { rows } = await rev.query<{ n: string }>(`SELECT count(*) AS n FROM revisions WHERE collection IN ('bench_items', 'bench_notes', 'bench_drafts')`);
      await rev.end();
      const expected = ITEMS + DRAFTS + acked.get(p)!;
      console.log(`  ${p.name}: ${rows[0]!.n} revisions for ${expected} acknowledged writes${Number(rows[0]!.n) === expected ? '' : '  !!! MISMATCH'}`);
    }
    if (process.env.WB_HISTORY !== '0' && results.PATCH) {
      for (const p of platforms) {
        const full = Math.round(median(results.PATCH[p.name]!.map((m) => m.wps)));
        await historyUnderLoad(p, itemsDb.get(p)!, { rate: full, label: `${p.name} full` }, ITEMS);
        await historyUnderLoad(p, itemsDb.get(p)!, { rate: Math.round(full / 2), label: `${p.name} half` }, ITEMS);
        // beyond what it sustains: the history must stay bounded (back-pressure: HISTORY_LAG_LIMIT, 503s counted)
        if (OVER > 0) await historyUnderLoad(p, itemsDb.get(p)!, { rate: Math.round(full * OVER), label: `${p.name} ${OVER}× full` }, ITEMS);
      }
    }
  } finally {
    for (const c of itemsDb.values()) await c.end();
    await admin.end();
    for (const t of targets) t.stop();
  }
  process.exit(0);
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
