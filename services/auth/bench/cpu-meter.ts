import { cpuSpentBetween, cpuUs, procTimes } from '../../../bench/proc-cpu';

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
    db: new Map(dbPids.map((pid) => [pid, cpuUs(pid)])),
  };
}

/** What was spent between two snapshots (a backend that appeared in between counts from zero). */
export function cpuSpent(a: CpuSnapshot, b: CpuSnapshot): CpuSpent {
  const db = cpuSpentBetween(a.db, b.db);
  return {
    process: b.process - a.process,
    main: b.main - a.main,
    mainKernel: b.mainKernel - a.mainKernel,
    pool: b.process - a.process - (b.main - a.main),
    db,
  };
}
