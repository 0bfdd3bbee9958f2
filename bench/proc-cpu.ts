import { readdirSync, readFileSync } from 'node:fs';

/** µs per clock tick of /proc/<pid>/stat (USER_HZ, getconf CLK_TCK). */
const TICK_US = 1e6 / 100;

/**
 * [user, system] CPU time of a process (`/proc/<pid>/stat`) or of one of its threads (`/proc/<pid>/task/<tid>/stat`)
 * in µs, from the kernel's accounting (10 ms resolution); NaN when it is gone or not on Linux.
 */
export function procTimes(statPath: string): [number, number] {
  try {
    const f = readFileSync(statPath, 'utf8').split(') ')[1]!.split(' ');
    return [Number(f[11]) * TICK_US, Number(f[12]) * TICK_US];
  } catch {
    return [NaN, NaN];
  }
}

/** user + system CPU µs a process has used so far; NaN when it is gone. */
export function cpuUs(pid: number | undefined): number {
  const [u, s] = procTimes(`/proc/${pid}/stat`);
  return u + s;
}

/** CPU µs of every PostgreSQL process on this machine (server and backends), by pid. */
export function postgresCpu(): Map<number, number> {
  const byPid = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (!readFileSync(`/proc/${name}/comm`, 'utf8').startsWith('postgres')) continue;
    } catch {
      continue; // the process ended while we looked
    }
    const us = cpuUs(Number(name));
    if (Number.isFinite(us)) byPid.set(Number(name), us);
  }
  return byPid;
}

/**
 * CPU µs spent between two snapshots by the processes alive at the end (one that appeared in between counts from
 * zero; one gone by then, NaN, is not counted).
 */
export function cpuSpentBetween(before: Map<number, number>, after: Map<number, number>): number {
  let sum = 0;
  for (const [pid, us] of after) if (Number.isFinite(us)) sum += us - (before.get(pid) ?? 0);
  return sum;
}

/** Read and write system calls a process has made so far (`/proc/<pid>/io`: syscr, syscw); NaN when it is gone. */
export function procSyscalls(pid: number | undefined): { reads: number; writes: number } {
  try {
    const io = readFileSync(`/proc/${pid}/io`, 'utf8');
    const field = (k: string) => Number(new RegExp(`^${k}: (\\d+)$`, 'm').exec(io)?.[1] ?? NaN);
    return { reads: field('syscr'), writes: field('syscw') };
  } catch {
    return { reads: NaN, writes: NaN };
  }
}

/**
 * Context switches so far of a process, every thread summed (`voluntary_ctxt_switches` + `nonvoluntary_…` of
 * /proc/<pid>/task/<tid>/status): each wait for a socket or a lock ends in one. NaN when it is gone.
 */
export function procSwitches(pid: number | undefined): number {
  try {
    let n = 0;
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const s = readFileSync(`/proc/${pid}/task/${tid}/status`, 'utf8');
      for (const m of s.matchAll(/^(?:non)?voluntary_ctxt_switches:\s+(\d+)$/gm)) n += Number(m[1]);
    }
    return n;
  } catch {
    return NaN;
  }
}
