import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { createTestDatabase, freePort, waitForMailFiles, type TestDatabase } from '@vellum/testing';
import { listening, serviceChildren } from './service-children';

// Issue 23.3: every process of the distributed topology reads its NATS settings through one loader and honours
// NATS_PREFIX. The services run as their own processes (`src/main.ts`) on a NATS server of the test's own that
// requires a user and password, all with a prefix: a password reset requested at auth reaches the mailer (a mail
// file), and every stream and bucket on the server carries the prefix.
const ROOT = path.resolve(__dirname, '../../..');
const natsServer = spawnSync('sh', ['-c', 'command -v nats-server']).stdout?.toString().trim();
const describeWithNats = natsServer && process.env.TEST_DATABASE_URL ? describe : describe.skip;

const PREFIX = 'acme_';
const NATS_USER = 'vellum';
const NATS_PASSWORD = 'nats-secret-1';
const exited = (c: ChildProcess) => new Promise<number | null>((r) => (c.exitCode !== null ? r(c.exitCode) : c.once('exit', (code) => r(code))));

describeWithNats('NATS settings: one loader, prefix and credentials honoured by every process', () => {
  const work = mkdtempSync(path.join(tmpdir(), 'vellum-nats-settings-'));
  const { children, logs, keep, waitFor: waitForUrl } = serviceChildren(200);
  const dbs: TestDatabase[] = [];
  let natsUrl = '';
  let authUrl = '';

  const run = (name: string, env: Record<string, string>, service = name) =>
    keep(
      name,
      spawn(process.execPath, ['--import', 'tsx', `services/${service}/src/main.ts`], {
        cwd: ROOT,
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          LOG_LEVEL: 'warn',
          METRICS_PORT: '0',
          NATS_URL: natsUrl,
          NATS_PREFIX: PREFIX,
          NATS_USER,
          NATS_PASSWORD,
          ...env,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true, // its own process group, killed as a whole
      }),
    );
  const waitFor = (url: string, ms = 60_000) => waitForUrl(url, ms);

  beforeAll(async () => {
    const natsPort = await freePort();
    const nats = spawn(
      natsServer!,
      ['-a', '127.0.0.1', '-p', String(natsPort), '-js', '-sd', path.join(work, 'nats'), '--user', NATS_USER, '--pass', NATS_PASSWORD],
      {
        stdio: 'ignore',
        detached: true,
      },
    );
    children.push(nats);
    natsUrl = `nats://127.0.0.1:${natsPort}`;
    for (let i = 0; i < 50 && !(await listening(natsPort)); i++) await new Promise((r) => setTimeout(r, 100));

    const [authDb, revisionsDb, itemsDb] = await Promise.all(
      ['auth', 'revisions', 'items'].map((s) => createTestDatabase({ migrationsDir: path.join(ROOT, 'services', s, 'prisma', 'migrations') })),
    );
    dbs.push(authDb, revisionsDb, itemsDb);
    const [authPort, revisionsPort, itemsPort, mailerPort] = await Promise.all([0, 1, 2, 3].map(() => freePort()));
    authUrl = `http://127.0.0.1:${authPort}`;
    run('auth', {
      PORT: String(authPort),
      DATABASE_URL: authDb.url,
      AUTH_KEYS_DIR: path.join(work, 'keys'),
      ADMIN_EMAIL: 'admin@example.com',
      ADMIN_PASSWORD: 'nats-settings-admin-1',
      ARGON2_MEMORY_KIB: '19456',
      LOGIN_STALL_TIME: '10',
    });
    run('mailer', { PORT: String(mailerPort), EMAIL_TRANSPORT: 'file', EMAIL_FILE_DIR: path.join(work, 'mail') });
    await waitFor(`${authUrl}/server/ping`);
    run('revisions', { PORT: String(revisionsPort), DATABASE_URL: revisionsDb.url, AUTH_URL: authUrl });
    run('items', { PORT: String(itemsPort), DATABASE_URL: itemsDb.url, AUTH_URL: authUrl });
    for (const port of [mailerPort, revisionsPort, itemsPort]) await waitFor(`http://127.0.0.1:${port}/server/ping`);
  }, 180_000);

  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) process.kill(-c.pid!, 'SIGKILL');
    await Promise.all(children.map(exited));
    await Promise.all(dbs.map((d) => d.drop()));
    rmSync(work, { recursive: true, force: true });
  });

  it('a reset mail requested at auth is sent by the mailer, through prefixed subjects', async () => {
    const asked = await fetch(`${authUrl}/auth/password/request`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@example.com' }),
    });
    expect(asked.status).toBe(204);
    const mailDir = path.join(work, 'mail');
    const mails = await waitForMailFiles(mailDir, 1);
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(readFileSync(path.join(mailDir, mail!), 'utf8')).toMatch(/To: admin@example\.com[\s\S]*reset-password\?token=/);
  }, 60_000);

  it('every stream and bucket on the server carries the prefix', async () => {
    const nc = await connect({ servers: natsUrl, user: NATS_USER, pass: NATS_PASSWORD });
    try {
      const jsm = await jetstreamManager(nc);
      const names: string[] = [];
      for await (const s of jsm.streams.list()) names.push(s.config.name);
      expect(names.length).toBeGreaterThanOrEqual(3); // the mail queue, the item events, the watched buckets
      expect(names.filter((n) => !n.startsWith(PREFIX) && !n.startsWith(`KV_${PREFIX}`))).toEqual([]);
    } finally {
      await nc.close();
    }
  });

  it('a process with wrong NATS credentials does not start, and says why', async () => {
    const bad = run('mailer-bad', { NATS_PASSWORD: 'wrong', PORT: '0', EMAIL_TRANSPORT: 'file', EMAIL_FILE_DIR: path.join(work, 'mail-bad') }, 'mailer');
    expect(await exited(bad)).toBe(1);
    expect(logs['mailer-bad']).toMatch(/authorization violation/i);
  }, 60_000);

  it('a process without NATS_URL does not start, and names the variable', async () => {
    const bad = run('mailer-no-url', { NATS_URL: '', PORT: '0', EMAIL_TRANSPORT: 'file', EMAIL_FILE_DIR: path.join(work, 'mail-bad') }, 'mailer');
    expect(await exited(bad)).toBe(1);
    expect(logs['mailer-no-url']).toMatch(/NATS_URL: is required/);
  }, 60_000);
});
