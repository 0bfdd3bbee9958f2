// A previous run killed outright leaves its postmaster running on the data directory (and the next start would
// fail on the lock file): find it, refuse when its owner is still alive, otherwise stop it.
import { readFile, readlink, realpath, rm } from 'node:fs/promises';
import path from 'node:path';

/** The data directory is in use by a PostgreSQL that another live process started and still owns. */
export class EmbeddedPostgresBusyError extends Error {
  constructor(
    readonly dataDir: string,
    readonly postgresPid: number,
    readonly ownerPid: number,
  ) {
    super(
      `${dataDir} is in use by PostgreSQL (pid ${postgresPid}) started by the running process ${ownerPid}; ` +
        'stop that process first, or use another data directory.',
    );
    this.name = 'EmbeddedPostgresBusyError';
  }
}

/** Holds the PID of the Node process that started the postmaster on this data directory. */
export const OWNER_FILE = 'vellum-owner.pid';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Alive and not a zombie (a zombie answers kill(pid, 0) but is gone). */
async function isAlive(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return process.platform !== 'linux';
  }
}

/** Is `pid` a postmaster running on `dataDir`? (A postmaster's working directory is its data directory.) */
async function isPostmasterOf(pid: number, dataDir: string): Promise<boolean> {
  if (!(await isAlive(pid))) return false;
  if (process.platform !== 'linux') return true; // cannot tell: assume the lock file is right
  try {
    const cwd = await readlink(`/proc/${pid}/cwd`);
    return cwd === (await realpath(dataDir));
  } catch {
    try {
      return (await readFile(`/proc/${pid}/cmdline`, 'utf8')).includes('postgres');
    } catch {
      return false;
    }
  }
}

async function readPid(file: string): Promise<number | undefined> {
  try {
    const pid = Number.parseInt((await readFile(file, 'utf8')).split('\n')[0]!.trim(), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

async function waitForExit(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (!(await isAlive(pid))) return true;
    await sleep(50);
  }
  return !(await isAlive(pid));
}

/**
 * A previous run that was killed leaves its postmaster running (and the next start would fail on the lock
 * file): stop it — fast shutdown, then immediate, then SIGKILL — and wait until it has exited.
 */
export async function recoverPreviousRun(dataDir: string, log: (m: string) => void): Promise<void> {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  const pid = await readPid(pidFile);
  if (pid === undefined) return;
  if (!(await isPostmasterOf(pid, dataDir))) {
    // Stale lock file (the postmaster died); its PID may since belong to another process, which would make
    // PostgreSQL refuse to start, so remove it.
    log(`embedded-postgres: removing stale ${pidFile} (pid ${pid} is not running PostgreSQL on this directory)`);
    await rm(pidFile, { force: true });
    return;
  }
  const owner = await readPid(path.join(dataDir, OWNER_FILE));
  if (owner !== undefined && (owner === process.pid || (await isNodeProcess(owner)))) {
    throw new EmbeddedPostgresBusyError(dataDir, pid, owner);
  }
  log(`embedded-postgres: stopping PostgreSQL pid ${pid} left running by a previous run`);
  for (const [signal, wait] of [
    ['SIGINT', 15_000],
    ['SIGQUIT', 5_000],
    ['SIGKILL', 5_000],
  ] as const) {
    try {
      process.kill(pid, signal);
    } catch {
      /* already gone */
    }
    if (await waitForExit(pid, wait)) return;
  }
  throw new Error(`could not stop PostgreSQL pid ${pid} running on ${dataDir}`);
}

/**
 * Stop a PostgreSQL left running on `dataDir` by a run that was killed (no-op when none; throws
 * EmbeddedPostgresBusyError when its owner is still alive). startEmbeddedPostgres does this itself.
 */
export async function stopOrphanedPostgres(dataDir: string, log: (m: string) => void = () => undefined): Promise<void> {
  await recoverPreviousRun(path.resolve(dataDir), log);
}

async function isNodeProcess(pid: number): Promise<boolean> {
  if (!(await isAlive(pid))) return false;
  try {
    return /(^|\/)(node|tsx)(\0|$)/.test((await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0')[0]! + '\0');
  } catch {
    return process.platform !== 'linux';
  }
}
