import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestDatabase, freePort, type TestDatabase } from '@vellum/testing';

// Issue 20.3 and 20.4 with real processes (the distributed topology: each service's main.ts in its own process,
// on a NATS server of the test's own): every process serves Prometheus metrics on its own METRICS_PORT; one
// password reset is followed through gateway → auth → NATS → mailer by one request id in the access logs and
// log lines, and by one trace id in the spans each process exports to an OTLP/HTTP receiver (a node:http
// server here).
const ROOT = path.resolve(__dirname, '../../..');
const SERVICES = ['auth', 'revisions', 'items', 'mailer', 'gateway'] as const;
type Service = (typeof SERVICES)[number];
const MAIN: Record<Service, string> = {
  auth: 'services/auth/src/main.ts',
  revisions: 'services/revisions/src/main.ts',
  items: 'services/items/src/main.ts',
  mailer: 'services/mailer/src/main.ts',
  gateway: 'gateway/src/main.ts',
};
const natsServer = spawnSync('sh', ['-c', 'command -v nats-server']).stdout?.toString().trim();
const describeWithNats = natsServer && process.env.TEST_DATABASE_URL ? describe : describe.skip;
if (!natsServer) console.warn('!!! operator processes e2e SKIPPED: no nats-server on PATH !!!');

const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1', () => (socket.destroy(), resolve(true)));
    socket.on('error', () => resolve(false));
  });

interface ExportedSpan {
  service: string;
  traceId: string;
  name: string;
}

/** A minimal OTLP/HTTP (JSON) trace receiver: records service.name, trace id and name of every span. */
function startOtlpReceiver(): Promise<{ url: string; spans: ExportedSpan[]; close(): Promise<void> }> {
  const spans: ExportedSpan[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url === '/v1/traces') {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        for (const rs of body.resourceSpans ?? []) {
          const service = rs.resource?.attributes?.find((a: { key: string }) => a.key === 'service.name')?.value?.stringValue;
          for (const ss of rs.scopeSpans ?? []) for (const s of ss.spans ?? []) spans.push({ service, traceId: s.traceId, name: s.name });
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        spans,
        close: () => new Promise<void>((done) => (server.closeAllConnections(), server.close(() => done()))),
      }),
    ),
  );
}

const eventually = async (what: string, check: () => boolean | Promise<boolean>, ms = 20_000) => {
  const t = Date.now();
  while (Date.now() - t < ms) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what}: not within ${ms} ms`);
};

describeWithNats('every process: metrics on its own port, one request id and one trace across processes', () => {
  jest.setTimeout(180_000);
  const work = mkdtempSync(path.join(tmpdir(), 'vellum-operator-'));
  const children: ChildProcess[] = [];
  const dbs: TestDatabase[] = [];
  const output: Record<string, string> = {};
  const metricsPort = {} as Record<Service, number>;
  let gateway = '';
  let otlp: Awaited<ReturnType<typeof startOtlpReceiver>>;

  const run = (name: Service, env: Record<string, string>) => {
    // node itself with tsx's loader (not the tsx wrapper); own process group so a SIGKILL takes it all.
    const child = spawn(process.execPath, ['--import', 'tsx', MAIN[name]], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, LOG_LEVEL: 'info', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    output[name] = '';
    child.stdout?.on('data', (d) => (output[name] += d));
    child.stderr?.on('data', (d) => (output[name] += d));
    children.push(child);
  };
  const lines = (name: Service) =>
    output[name]
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  const waitFor = (url: string) =>
    eventually(
      `${url} (${JSON.stringify(output).slice(-3000)})`,
      () =>
        fetch(url).then(
          (r) => r.ok,
          () => false,
        ),
      60_000,
    );

  beforeAll(async () => {
    otlp = await startOtlpReceiver();
    const natsPort = await freePort();
    const nats = spawn(natsServer!, ['-a', '127.0.0.1', '-p', String(natsPort), '-js', '-sd', path.join(work, 'nats')], { stdio: 'ignore' });
    children.push(nats);
    for (let i = 0; i < 50 && !(await listening(natsPort)); i++) await new Promise((r) => setTimeout(r, 100));
    const [authDb, revisionsDb, itemsDb] = await Promise.all(
      ['auth', 'revisions', 'items'].map((s) => createTestDatabase({ migrationsDir: path.join(ROOT, 'services', s, 'prisma', 'migrations') })),
    );
    dbs.push(authDb, revisionsDb, itemsDb);
    const ports = await Promise.all(SERVICES.map(() => freePort()));
    const port = Object.fromEntries(SERVICES.map((s, i) => [s, ports[i]])) as Record<Service, number>;
    for (const s of SERVICES) metricsPort[s] = await freePort();
    const url = (s: Service) => `http://127.0.0.1:${port[s]}`;
    const common = (s: Service) => ({
      NATS_URL: `nats://127.0.0.1:${natsPort}`,
      PORT: String(port[s]),
      HOST: '127.0.0.1',
      METRICS_PORT: String(metricsPort[s]),
      METRICS_HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port.gateway}`,
      OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
    });
    run('auth', {
      ...common('auth'),
      DATABASE_URL: authDb.url,
      AUTH_KEYS_DIR: path.join(work, 'keys'),
      ADMIN_EMAIL: 'admin@example.com',
      ADMIN_PASSWORD: 'operator-admin-password',
      PASSWORD_RESET_URL_ALLOW_LIST: 'https://app.example.com/reset',
      LOGIN_STALL_TIME: '50',
      ARGON2_MEMORY_KIB: '19456',
      ARGON2_ITERATIONS: '2',
    });
    await waitFor(`${url('auth')}/server/ping`);
    run('revisions', { ...common('revisions'), DATABASE_URL: revisionsDb.url, AUTH_URL: url('auth') });
    run('items', { ...common('items'), DATABASE_URL: itemsDb.url, AUTH_URL: url('auth') });
    run('mailer', { ...common('mailer'), EMAIL_TRANSPORT: 'file', EMAIL_FILE_DIR: path.join(work, 'mail') });
    run('gateway', { ...common('gateway'), AUTH_URLS: url('auth'), REVISIONS_URLS: url('revisions'), ITEMS_URLS: url('items') });
    for (const s of SERVICES) await waitFor(`${url(s)}/server/ping`);
    gateway = url('gateway');
  }, 180_000);

  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGTERM');
    await Promise.all(children.map((c) => (c.exitCode !== null || c.signalCode ? undefined : new Promise((r) => c.once('exit', r)))));
    await Promise.all(dbs.map((d) => d.drop()));
    await otlp?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('follows one password reset by one request id and one trace id through gateway, auth, NATS and mailer', async () => {
    const requestId = `reset-${Date.now()}`;
    const traceId = 'ab'.repeat(16);
    const r = await fetch(`${gateway}/auth/password/request`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': requestId, traceparent: `00-${traceId}-${'cd'.repeat(8)}-01` },
      body: JSON.stringify({ email: 'admin@example.com', reset_url: 'https://app.example.com/reset' }),
    });
    expect(r.status).toBe(204);
    await eventually('the mailer sent the reset mail', () => lines('mailer').some((l) => l.requestId === requestId && /sent/.test(String(l.msg))));

    // One access-log line per request in the gateway and in auth, with the route template; no token, no e-mail.
    const access = (s: Service) => lines(s).filter((l) => l.msg === 'request' && l.requestId === requestId);
    // log lines reach the pipes asynchronously: wait for both access lines
    await eventually('the access-log lines of gateway and auth', () => access('gateway').length > 0 && access('auth').length > 0);
    expect(access('gateway')).toEqual([expect.objectContaining({ method: 'POST', route: '/auth', status: 204, service: 'gateway' })]);
    expect(access('auth')).toEqual([expect.objectContaining({ method: 'POST', route: '/auth/password/request', status: 204, service: 'auth', userId: null })]);
    for (const s of ['gateway', 'auth'] as const) expect(JSON.stringify(access(s))).not.toMatch(/token|admin@example\.com|password"/);
    // The mailer's line for that job carries the same id (the file transport's dev line shows the link on purpose).
    expect(lines('mailer').filter((l) => l.requestId === requestId && l.msg === 'mail sent')).toHaveLength(1);
    for (const s of ['gateway', 'auth', 'mailer'] as const) {
      const mine = lines(s).filter((l) => l.requestId === requestId);
      expect(mine.length).toBeGreaterThan(0);
      // one service key per line (the raw text, not the parsed object, which would hide a duplicate)
      for (const raw of output[s].split('\n').filter((l) => l.includes(requestId))) expect(raw.match(/"service":/g)).toHaveLength(1);
    }

    // The spans of the three processes arrive under the caller's trace id.
    await eventually('spans from gateway, auth and mailer', () => {
      const services = new Set(otlp.spans.filter((s) => s.traceId === traceId).map((s) => s.service));
      return services.has('gateway') && services.has('auth') && services.has('mailer');
    });
  });

  it('serves Prometheus metrics on every process’s own port, with its own series', async () => {
    // A failed login and a request per service, so the counters have something to count.
    const login = await fetch(`${gateway}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@example.com', password: 'wrong-password-here' }),
    });
    expect(login.status).toBe(401);
    await fetch(`${gateway}/revisions`);
    await fetch(`${gateway}/items/nothing`);
    const expected: Record<Service, RegExp[]> = {
      gateway: [/vellum_http_request_duration_seconds_count\{service="gateway",method="POST",route="\/auth",status="401"\} 1/],
      auth: [
        /vellum_auth_logins_total\{outcome="invalid_credentials"\} 1/,
        /vellum_http_request_duration_seconds_count\{service="auth",method="POST",route="\/auth\/login",status="401"\} 1/,
        /vellum_db_pool_connections\{service="auth",pool="main",state="in_use"\} \d+/,
        /vellum_db_pool_waiting\{service="auth",pool="main"\} 0/,
        /vellum_outbox_backlog\{service="auth"\} \d+/,
        /vellum_outbox_oldest_unpublished_age_seconds\{service="auth"\} [\d.]+/,
      ],
      revisions: [
        /vellum_consumer_pending\{service="revisions",stream="ITEMS",consumer="revisions"\} \d+/,
        /vellum_db_pool_waiting\{service="revisions",pool="main"\} 0/,
      ],
      items: [/vellum_outbox_backlog\{service="items"\} \d+/, /vellum_db_pool_connections\{service="items",pool="main",state="idle"\} \d+/],
      mailer: [/vellum_mails_sent_total\{template="password-reset"\} 1/, /vellum_consumer_pending\{service="mailer",stream="MAIL",consumer="mailer"\} 0/],
    };
    for (const s of SERVICES) {
      const res = await fetch(`http://127.0.0.1:${metricsPort[s]}/metrics`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
      const text = await res.text();
      // prom-client's default process metrics
      expect(text).toMatch(/^process_cpu_user_seconds_total \d/m);
      expect(text).toMatch(/^nodejs_eventloop_lag_seconds [\d.e-]+/m);
      expect(text).toMatch(/^nodejs_heap_size_used_bytes \d/m);
      for (const re of expected[s]) expect({ service: s, found: re.test(text) ? re.source : text.slice(0, 0) }).toEqual({ service: s, found: re.source });
    }
  });
});
