import { readFileSync } from 'node:fs';

const TICK_US = 1e6 / 100; // USER_HZ (getconf CLK_TCK)

/** [utime, stime] of a process (or of one of its threads) from /proc, in µs (10 ms resolution); NaN when gone. */
function procTimes(path: string): [number, number] {
  try {
    const f = readFileSync(path, 'utf8').split(') ')[1].split(' ');
    return [Number(f[11]) * TICK_US, Number(f[12]) * TICK_US];
  } catch {
    return [NaN, NaN];
  }
}

/** utime + stime of a process (or thread) in µs; NaN when gone. */
export function procCpuUs(path: string): number {
  const [u, s] = procTimes(path);
  return u + s;
}

export interface CpuSnapshot {
  /** This process, all threads (µs). */
  process: number;
  /** Its main thread: the event loop (JavaScript, sockets), everything but the libuv pool (µs). */
  main: number;
  /** The part of `main` spent in the kernel (system calls: mostly socket reads and writes). */
  mainKernel: number;
  /** The PostgreSQL backends serving it, by pid (µs). */
  db: Map<number, number>;
}

export interface CpuSpent {
  process: number;
  main: number;
  mainKernel: number;
  /** process − main: the libuv pool (argon2). */
  pool: number;
  db: number;
}

/**
 * CPU time actually spent, from the kernel's accounting: unlike req/s it does not move when other work shares
 * the cores. `dbPids` are the PostgreSQL backends of the measured database (same machine).
 */
export function cpuSnapshot(dbPids: number[]): CpuSnapshot {
  const u = process.cpuUsage();
  const [mu, ms] = procTimes(`/proc/${process.pid}/task/${process.pid}/stat`);
  return {
    process: u.user + u.system,
    main: mu + ms,
    mainKernel: ms,
    db: new Map(dbPids.map((pid) => [pid, procCpuUs(`/proc/${pid}/stat`)])),
  };
}

/** What was spent between two snapshots (a backend that appeared in between counts from zero). */
export function cpuSpent(a: CpuSnapshot, b: CpuSnapshot): CpuSpent {
  let db = 0;
  for (const [pid, t] of b.db) if (Number.isFinite(t)) db += t - (a.db.get(pid) ?? 0);
  return { process: b.process - a.process, main: b.main - a.main, mainKernel: b.mainKernel - a.mainKernel, pool: b.process - a.process - (b.main - a.main), db };
}
