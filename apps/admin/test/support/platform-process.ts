import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { exited, freePort, ROOT, startNpmStart } from '@vellum/testing';

export const ADMIN = { email: 'admin@example.com', password: 'browser-admin-password-1' };

export interface PlatformProcess {
  url: string;
  dataDir: string;
  /** Everything the process printed (for failure messages). */
  output(): string;
  stop(): Promise<void>;
}

/**
 * The platform as `npm start` runs it: the admin app built if needed (the prestart step), then
 * deploy/local/src/main.ts as a child process in its own process group, with its own data dir (embedded
 * PostgreSQL, keys, mail files) on free ports.
 */
export async function startPlatformProcess(env: Record<string, string> = {}): Promise<PlatformProcess> {
  // npm start's prestart step: build the admin app when missing or stale.
  const built = spawnSync(process.execPath, ['--import', 'tsx', 'apps/admin/scripts/ensure-built.ts'], { cwd: ROOT, encoding: 'utf8' });
  if (built.status !== 0 || /could not be built/.test(built.stderr)) throw new Error(`the admin app build failed: ${built.stderr}`);
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'vellum-admin-e2e-'));
  chmodSync(dataDir, 0o755);
  const url = `http://127.0.0.1:${port}`;
  const child = startNpmStart(dataDir, port, {
    PUBLIC_URL: url,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    LOGIN_STALL_TIME: '50',
    ...env,
  });
  let out = '';
  child.stdout?.on('data', (d) => (out += d));
  child.stderr?.on('data', (d) => (out += d));
  const stop = async () => {
    if (child.exitCode === null && !child.signalCode) {
      process.kill(-child.pid!, 'SIGTERM');
      const killer = setTimeout(() => {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          /* gone */
        }
      }, 15_000);
      await exited(child);
      clearTimeout(killer);
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  const end = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the platform exited (${child.exitCode}):\n${out}`);
    try {
      const r = await fetch(`${url}/server/ping`, { signal: AbortSignal.timeout(1000) });
      if ((await r.text()) === 'pong') break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > end) {
      await stop();
      throw new Error(`the platform did not answer within 90 s:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { url, dataDir, output: () => out, stop };
}
