import { readdirSync, readFileSync } from 'node:fs';

/** µs per clock tick of /proc/<pid>/stat (USER_HZ). */
export const TICK_US = 1e6 / 100;

/** Fields of /proc/<pid>/stat after the command name (field 3 onwards), or undefined when it is gone. */
function statFields(pid: number | 'self'): string[] | undefined {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  } catch {
    return undefined;
  }
}

/** CPU ticks (user + system) a process has used so far; NaN when it is gone. */
export function cpuTicks(pid: number): number {
  const f = statFields(pid);
  return f ? Number(f[11]) + Number(f[12]) : NaN;
}

/** CPU ticks of this process's children that have exited and been waited for (e.g. a finished autocannon). */
export function waitedChildrenTicks(): number {
  const f = statFields('self');
  return f ? Number(f[13]) + Number(f[14]) : NaN;
}

/** CPU ticks of every PostgreSQL process on this machine (server and backends), by pid. */
export function postgresTicks(): Map<number, number> {
  const byPid = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const raw = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (!raw.includes('(postgres)')) continue;
      const f = raw.split(') ')[1]!.split(' ');
      byPid.set(Number(name), Number(f[11]) + Number(f[12]));
    } catch {
      // the process ended while we looked
    }
  }
  return byPid;
}

/** Ticks PostgreSQL spent between two snapshots: processes alive at the end (a backend that exited in between is not counted). */
export function postgresTicksBetween(before: Map<number, number>, after: Map<number, number>): number {
  let sum = 0;
  for (const [pid, ticks] of after) sum += ticks - (before.get(pid) ?? 0);
  return sum;
}
