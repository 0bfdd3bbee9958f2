// The migrate step the Kubernetes manifests run as an init container (`node <service>/dist/main.js migrate`), as a
// real process per service: it applies the service's migrations to an empty database and exits 0, finds nothing to
// do the second time, exits 1 with one line when the database is unreachable and 2 on a bad configuration; a
// service started with MIGRATE_AT_START=false on a database the step has not migrated refuses to start.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { databaseUrl, dropDatabase, withClient } from '@vellum/db';
import { createInProcessMessaging } from '@vellum/messaging';
import { loadItemsConfig } from '@vellum/items/src/config';
import { startItems } from '@vellum/items/src/start';
import { silentLogger } from '@vellum/testing';

const ROOT = path.resolve(__dirname, '../../..');
const ADMIN = process.env.TEST_DATABASE_URL!;
const SERVICES = ['auth', 'revisions', 'items'] as const;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}
function runMain(service: string, args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'services', service, 'src/main.ts'), ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code) => (clearTimeout(timer), resolve({ code, stdout, stderr })));
  });
}

const created: string[] = [];
async function emptyDatabase(): Promise<string> {
  // the test databases' naming (prefix, base-36 creation time): swept if a crashed run leaves it behind
  const name = `vellum_test_${Date.now().toString(36)}_migrate_${randomBytes(4).toString('hex')}`;
  await withClient(ADMIN, (c) => c.query(`CREATE DATABASE "${name}"`));
  created.push(name);
  return databaseUrl(ADMIN, name);
}
afterAll(async () => {
  for (const name of created) await dropDatabase(ADMIN, name);
});

const tables = (url: string) =>
  withClient(url, async (c) => (await c.query(`SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public'`)).rows[0].n as number);

describe.each(SERVICES)('%s main.js migrate', (service) => {
  it('applies the migrations to an empty database, then has nothing to apply', async () => {
    const url = await emptyDatabase();
    const first = await runMain(service, ['migrate'], { DATABASE_URL: url, LOG_LEVEL: 'info' });
    expect({ code: first.code, stderr: first.stderr }).toEqual({ code: 0, stderr: '' });
    expect(first.stdout).toMatch(/migrate: applied \d+ migration\(s\)/);
    expect(await tables(url)).toBeGreaterThan(1);
    const second = await runMain(service, ['migrate'], { DATABASE_URL: url, LOG_LEVEL: 'info' });
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('migrate: nothing to apply');
  }, 120_000);
});

it('an unreachable database exits 1 with one error line; a bad configuration exits 2 without a stack trace', async () => {
  const down = await runMain('items', ['migrate'], { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' });
  expect(down.code).toBe(1);
  const errors = down.stdout.split('\n').filter((l) => l.includes('"level":50'));
  expect(errors).toHaveLength(1);
  expect(errors[0]).toContain('migrate failed');
  const bad = await runMain('revisions', ['migrate'], {});
  expect(bad.code).toBe(2);
  expect(bad.stderr).toMatch(/^migrate: [^\n]*\n?.*DATABASE_URL: is required/);
  expect(bad.stderr).not.toMatch(/\n\s+at /);
}, 120_000);

it('with MIGRATE_AT_START=false a service applies nothing and refuses a database the migrate step has not run on', async () => {
  const url = await emptyDatabase();
  const config = loadItemsConfig({
    DATABASE_URL: url,
    MIGRATE_AT_START: 'false',
    AUTH_URL: 'http://127.0.0.1:1',
  });
  const start = startItems(config, {
    logger: silentLogger('items-test'),
    messaging: createInProcessMessaging(),
  });
  await expect(start).rejects.toThrow(/not applied yet.*migrate/);
  expect(await tables(url)).toBe(0);
});
