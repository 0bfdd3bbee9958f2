import type { ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, natsServerBinary, startOwnNatsServer, type OwnNatsServer, waitForPing } from '@vellum/testing';
import { api, mailProblems, nestedProblems, readRecorded, recordingProblems, settle, setUpNested, startLoad, type Load, type LoadResult } from './crash-load';
import { distributedState, killService, startDistributedProcess, stopDistributedProcess } from './distributed-process';
import { collectionWithId, FAST_LOGINS } from './platform-harness';

// Issue 15, "done when" 2: the distributed topology (`npm run start:distributed`: one process per service, real
// NATS JetStream and PostgreSQL). Under 6 item writers and 2 password requesters: SIGKILL of (a) the revisions
// service, (b) the mailer, (c) the items service — each restarted by the supervisor — and (d) the NATS server
// (this test's own) stopped for 30 s. Every acknowledged write ends as exactly one revision, every committed
// password request as one mail; during the outage writes answer 2xx or 503, never 500, never slower than 5 s.
const ADMIN = { email: 'admin@example.com', password: 'dist-admin-password-1' };
const RESET_URL = 'https://app.example.com/reset';
const run = natsServerBinary() ? describe : describe.skip;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

run('distributed topology: SIGKILL of a service or a NATS outage loses no acknowledged write or mail', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'vellum-dist-'));
  chmodSync(dataDir, 0o755);
  let nats: OwnNatsServer;
  let child: ChildProcess;
  let port: number;
  let dbPort: number;
  let token: string;
  const acked: string[] = [];
  const ackedNested: string[] = [];
  let ackedRequests = 0;
  let out = '';
  const url = () => `http://127.0.0.1:${port}`;
  const emails = ['dist-1@example.com', 'dist-2@example.com'];

  const call = (method: string, p: string, body?: unknown, auth = true) => api(port, method, p, auth ? token : undefined, body);

  /** Load for `ms` around `fault`, then: everything acknowledged so far is recorded exactly once. */
  const underLoad = async (fault: (load: Load) => Promise<void>): Promise<LoadResult> => {
    const load = startLoad({ url, token, collection: 'notes', writers: 6, requesters: emails, resetUrl: RESET_URL, timeoutMs: 10_000, nested: 2 });
    await load.acknowledged({ items: 20, requests: 1 }); // load under way before the fault
    await fault(load);
    const result = await load.stop();
    acked.push(...result.ackedItems);
    ackedNested.push(...result.ackedNested);
    ackedRequests += result.ackedRequests;
    const problems = await settle(async () => recordingProblems(await readRecorded(url(), token, 'notes'), acked), 90_000);
    expect(problems).toEqual([]);
    // half the writers write nested (2 replies per note): children kept, one revision each, parent = the note's revision
    expect(await settle(() => nestedProblems(url(), token, 'notes', ackedNested, 2), 60_000)).toEqual([]);
    const mails = await settle(
      () => mailProblems(`postgres://postgres:postgres@127.0.0.1:${dbPort}/vellum_auth`, path.join(dataDir, 'mail'), ackedRequests),
      90_000,
    );
    expect(mails).toEqual([]);
    return result;
  };

  /** SIGKILL to the service's group, then load until the supervisor has it back (a new pid that serves). */
  const killAndWaitBack = (name: string) => async (load: Load) => {
    const killed = killService(dataDir, name);
    const end = Date.now() + 60_000;
    for (;;) {
      const s = distributedState(dataDir).services[name];
      if (
        s.pid !== killed &&
        (await fetch(`${s.url}/server/ping`).then(
          (r) => r.ok,
          () => false,
        ))
      )
        break;
      if (Date.now() > end) throw new Error(`${name} did not come back`);
      await sleep(200);
    }
    await load.acknowledged({ items: load.counts().items + 10 }); // load on the restarted service before it stops
  };

  beforeAll(async () => {
    nats = await startOwnNatsServer();
    [port, dbPort] = [await freePort(), await freePort()];
    child = startDistributedProcess(dataDir, port, {
      NATS_URL: nats.url,
      EMBEDDED_DB_PORT: String(dbPort),
      ADMIN_PASSWORD: ADMIN.password,
      ...FAST_LOGINS,
      RATE_LIMITER_ENABLED: 'false',
      PASSWORD_RESET_URL_ALLOW_LIST: RESET_URL,
      // a mail job whose mailer died is redelivered after this (default 60 s)
      EMAIL_ACK_WAIT: '5s',
      EMAIL_SEND_TIMEOUT: '4s',
    });
    child.stdout?.on('data', (d) => (out += d));
    child.stderr?.on('data', (d) => (out += d));
    await waitForPing(port, 150_000);
    const login = await call('POST', '/auth/login', ADMIN, false);
    if (login.status !== 200) throw new Error(`login: ${login.status} ${out.slice(-2000)}`);
    token = String(login.json.data?.access_token);
    const created = await call('POST', '/collections', collectionWithId('notes', [{ field: 'title', type: 'string' }]));
    expect(created.status).toBe(200);
    await setUpNested(call, 'notes');
    for (const email of emails) expect((await call('POST', '/users', { email, password: 'dist-user-password-1', status: 'active' })).status).toBe(200);
  }, 180_000);

  afterAll(async () => {
    await stopDistributedProcess(child, dataDir);
    await nats?.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  }, 90_000);

  it('(a) SIGKILL of the revisions service mid-burst', () => underLoad(killAndWaitBack('revisions-1')), 180_000);

  it('(b) SIGKILL of the mailer mid-burst', () => underLoad(killAndWaitBack('mailer')), 180_000);

  it('(c) SIGKILL of the items service mid-burst', () => underLoad(killAndWaitBack('items')), 180_000);

  it('(d) NATS stopped for 30 s during writes: 2xx or 503 within 5 s, never 500; everything acknowledged recorded once after it returns', async () => {
    const result = await underLoad(async (load) => {
      await nats.stop();
      await sleep(30_000); // the outage (the scenario, not a wait)
      await nats.start();
      await load.acknowledged({ items: load.counts().items + 10 }, 90_000); // writes acknowledged again
    });
    const statuses = Object.keys(result.outcomes);
    expect(statuses.filter((s) => !['200', '204', '503'].includes(s))).toEqual([]);
    expect(result.maxMs).toBeLessThan(5000);
    console.log(`NATS outage: outcomes ${JSON.stringify(result.outcomes)}, slowest answer ${result.maxMs} ms`);
  }, 240_000);
});
