import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, chmodSync, rmSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, exited, killProcessesUsing, processesUsing, startNpmStart, waitForPing } from '@vellum/testing';

// Issue 2's "done when" for the one-command platform, on the real entry point (`npm start` runs this file):
// first start with a new embedded database, second start, Ctrl-C with no orphan process, and a kill -9
// followed by a new start.
function start(dataDir: string, port: number, logLevel = 'warn'): ChildProcess {
  return startNpmStart(dataDir, port, { LOG_LEVEL: logLevel });
}

/** Lines that tell of a stop gone wrong: error-level JSON lines, or a connection cut under a service. */
const errorLines = (out: string) => out.split('\n').filter((l) => /Connection terminated|terminating connection|ECONNRESET|"level":(5|6)\d/.test(l));

describe('npm start (the embedded topology as a process)', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'vellum-start-'));
  chmodSync(dataDir, 0o755);
  afterAll(() => {
    killProcessesUsing(dataDir);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('starts within 60 s, restarts within 20 s, stops cleanly on Ctrl-C (SIGINT to the group) and SIGTERM, survives kill -9', async () => {
    const port = await freePort();
    let out = '';
    // First start: creates the cluster, the databases, the keys and the admin (password generated and printed once).
    let child = start(dataDir, port, 'info');
    child.stdout?.on('data', (d) => (out += d));
    child.stderr?.on('data', (d) => (out += d));
    const first = await waitForPing(port, 60_000);
    expect(out).toMatch(/Vellum is up/);
    // Every service logs through the one process: each JSON line carries exactly one `service` key.
    const jsonLines = out.split('\n').filter((l) => l.startsWith('{'));
    expect(jsonLines.length).toBeGreaterThan(3);
    expect(jsonLines.filter((l) => (l.match(/"service":/g) ?? []).length !== 1)).toEqual([]);
    const services = new Set(jsonLines.map((l) => (JSON.parse(l) as { service: string }).service));
    expect([...services]).toEqual(expect.arrayContaining(['vellum', 'auth']));
    expect(readFileSync(path.join(dataDir, 'postgres', 'PG_VERSION'), 'utf8').trim()).toMatch(/^\d+$/);

    // Ctrl-C: SIGINT to the whole process group, as a terminal sends it. The services drain, PostgreSQL stops last.
    process.kill(-child.pid!, 'SIGINT');
    expect(await exited(child)).toBe(0);
    expect(errorLines(out)).toEqual([]);
    expect(processesUsing(dataDir)).toEqual([]);

    // Second start: existing data. SIGTERM to the leader only (as a service manager sends it).
    out = '';
    child = start(dataDir, port);
    child.stdout?.on('data', (d) => (out += d));
    child.stderr?.on('data', (d) => (out += d));
    const second = await waitForPing(port, 20_000);
    child.kill('SIGTERM');
    expect(await exited(child)).toBe(0);
    expect(errorLines(out)).toEqual([]);
    expect(processesUsing(dataDir)).toEqual([]);

    child = start(dataDir, port);
    await waitForPing(port, 20_000);

    // kill -9: the embedded PostgreSQL is left running; the next start must recover.
    child.kill('SIGKILL');
    await exited(child);
    child = start(dataDir, port);
    const afterKill = await waitForPing(port, 25_000);
    const health = (await (await fetch(`http://127.0.0.1:${port}/server/health`)).json()) as { status: string };
    expect(health.status).toBe('ok');
    child.kill('SIGTERM');
    expect(await exited(child)).toBe(0);
    expect(processesUsing(dataDir)).toEqual([]);
    console.log(`npm start timings: first ${first} ms, second ${second} ms, after kill -9 ${afterKill} ms`);
  }, 180_000);
});
