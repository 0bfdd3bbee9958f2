import os from 'node:os';
import { autocannon, type LoadResult } from './autocannon';
import type { Floor } from './floor';
import { cpuSpentBetween, cpuUs, postgresCpu } from './proc-cpu';

/** `distributed`: a gateway process in front of a revisions service process (the distributed topology). */
export type Via = 'floor' | 'gateway' | 'direct' | 'distributed';

export interface Scenario {
  name: string;
  /** Path and query on the platform. */
  path: string;
  token: string;
  method?: 'GET' | 'POST' | 'SEARCH';
  body?: string;
  /** GraphQL: the gateway serves it at /graphql/system, the service at /graphql. No floor. */
  graphql?: boolean;
}

export interface Row extends Omit<LoadResult, 'cpu'> {
  size: number;
  scenario: string;
  via: Via;
  round: number;
  /** CPU µs per request: the serving process (platform or floor), PostgreSQL, autocannon. */
  cpu: { server: number; postgres: number; autocannon: number };
  /**
   * The machine's 1-minute load average as the run ended. On two shared cores the CPU a request costs grows with it,
   * the platform's faster than the floor's: figures taken at different loads do not compare.
   */
  load: number;
}

export interface Targets {
  gateway: string;
  direct: string;
  floor?: Floor;
  /** The distributed topology's gateway and the pids of its processes (gateway, service). */
  distributed?: { url: string; pids: number[] };
  /** The floor's path for each scenario (index order). */
  floorPath: (i: number) => string;
}

const target = (s: Scenario, via: Via, t: Targets, i: number) => {
  if (via === 'floor') return { url: t.floor!.url + t.floorPath(i), opts: {} };
  const base = via === 'gateway' ? t.gateway : via === 'distributed' ? t.distributed!.url : t.direct;
  const url = s.graphql ? `${base}${via === 'direct' ? '/graphql' : '/graphql/system'}` : base + s.path;
  return { url, opts: { headers: { Authorization: `Bearer ${s.token}` }, ...(s.method ? { method: s.method } : {}), ...(s.body ? { body: s.body } : {}) } };
};

/** One load run with the CPU each side spent on it (from /proc: where the time goes). */
async function measured(url: string, serverPids: number[], opts: Parameters<typeof autocannon>[1]) {
  const cpu = () => serverPids.reduce((sum, pid) => sum + cpuUs(pid), 0);
  const [s0, pg0] = [cpu(), postgresCpu()];
  const r = await autocannon(url, opts);
  const [s1, pg1] = [cpu(), postgresCpu()];
  const per = (us: number) => Math.round(us / Math.max(1, r.total));
  return { ...r, cpu: { server: per(s1 - s0), postgres: per(cpuSpentBetween(pg0, pg1)), autocannon: per(r.cpu) }, load: os.loadavg()[0]! };
}

/**
 * Every scenario in `rounds` interleaved rounds (floor, gateway, direct, then again): the machine's speed drifts
 * between minutes, so each ratio is taken within one round and the median of the rounds is reported.
 */
export async function measureReads(
  size: number,
  scenarios: Scenario[],
  t: Targets,
  o: { connections: number; seconds: number; warmup: number; rounds: number; log: (m: string) => void },
): Promise<Row[]> {
  const rows: Row[] = [];
  for (const [i, s] of scenarios.entries()) {
    const vias: Via[] = [...(s.graphql || !t.floor ? [] : ['floor' as const]), 'gateway', 'direct', ...(t.distributed ? ['distributed' as const] : [])];
    if (o.warmup > 0)
      for (const via of vias) {
        const { url, opts } = target(s, via, t, i);
        await autocannon(url, { connections: o.connections, seconds: o.warmup, ...opts });
      }
    for (let round = 1; round <= o.rounds; round++) {
      for (const via of vias) {
        const { url, opts } = target(s, via, t, i);
        const pids = via === 'floor' ? [t.floor!.pid] : via === 'distributed' ? t.distributed!.pids : [process.pid];
        const r = await measured(url, pids, { connections: o.connections, seconds: o.seconds, ...opts });
        rows.push({ size, scenario: s.name, via, round, ...r });
        o.log(
          `${s.name} via ${via} (round ${round}): ${r.rps} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms; CPU µs/req server ${r.cpu.server}, ` +
            `postgres ${r.cpu.postgres}, autocannon ${r.cpu.autocannon}; load ${r.load.toFixed(1)}${r.non2xx || r.errors ? `; ${r.non2xx} non-2xx, ${r.errors} errors` : ''}`,
        );
      }
    }
  }
  return rows;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2) : NaN;
};

export interface Summary {
  size: number;
  scenario: string;
  rps: Record<Via, number>;
  p50: Record<Via, number>;
  p99: Record<Via, number>;
  /** Median over rounds of gateway ÷ floor and direct ÷ floor (req/s), and of gateway p99 ÷ floor p99. */
  gatewayFloor: number;
  /** The distributed topology's gateway ÷ floor (req/s), NaN when not measured. */
  distributedFloor: number;
  directFloor: number;
  p99Floor: number;
  gatewayDirect: number;
  /** CPU µs per request of each side, the median of the rounds (one disturbed round is not the figure). */
  cpu: Record<Via, Row['cpu'] | undefined>;
  /** The lowest and highest load average the runs ended at. */
  load: [number, number];
}

/** Medians per scenario and via; ratios per round, then their median. */
export function summarise(rows: Row[]): Summary[] {
  const keys = [...new Set(rows.map((r) => `${r.size}\u0000${r.scenario}`))];
  return keys.map((k) => {
    const [size, scenario] = k.split('\u0000') as [string, string];
    const of = (via: Via) => rows.filter((r) => `${r.size}` === size && r.scenario === scenario && r.via === via);
    const by = (via: Via, f: (r: Row) => number) => median(of(via).map(f));
    const ratio = (a: Via, b: Via, f: (r: Row) => number) =>
      median(
        of(a)
          .map((r) => {
            const m = of(b).find((x) => x.round === r.round);
            return m ? f(r) / f(m) : NaN;
          })
          .filter(Number.isFinite),
      );
    const vias: Via[] = ['floor', 'gateway', 'direct', 'distributed'];
    const pick = (f: (r: Row) => number) => Object.fromEntries(vias.map((v) => [v, by(v, f)])) as Record<Via, number>;
    return {
      size: Number(size),
      scenario,
      rps: pick((r) => r.rps),
      p50: pick((r) => r.p50),
      p99: pick((r) => r.p99),
      gatewayFloor: ratio('gateway', 'floor', (r) => r.rps),
      distributedFloor: ratio('distributed', 'floor', (r) => r.rps),
      directFloor: ratio('direct', 'floor', (r) => r.rps),
      p99Floor: ratio('gateway', 'floor', (r) => r.p99),
      gatewayDirect: ratio('gateway', 'direct', (r) => r.rps),
      cpu: Object.fromEntries(vias.map((v) => [v, medianCpu(of(v))])) as Summary['cpu'],
      load: loadRange(rows.filter((r) => `${r.size}\u0000${r.scenario}` === k)),
    };
  });
}

/** The median of each CPU figure over the rounds, undefined when there were none. */
function medianCpu(rows: Row[]): Row['cpu'] | undefined {
  if (!rows.length) return undefined;
  const m = (k: keyof Row['cpu']) => Math.round(median(rows.map((r) => r.cpu[k])));
  return { server: m('server'), postgres: m('postgres'), autocannon: m('autocannon') };
}

const loadRange = (rows: Row[]): [number, number] => [Math.min(...rows.map((r) => r.load)), Math.max(...rows.map((r) => r.load))];
