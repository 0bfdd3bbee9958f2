import type { ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { followSse, freePort, natsServerBinary, startOwnNatsServer, waitForPing, type OwnNatsServer, type SseFollower } from '@vellum/testing';
import { api, startLoad } from './crash-load';
import { distributedState, killService, startDistributedProcess, stopDistributedProcess } from './distributed-process';
import { collectionWithId, FAST_LOGINS } from './platform-harness';

// The distributed topology with two revisions replicas behind the gateway: event streams of revisions are served by
// both; SIGKILL of one replica's process group cuts the streams it served, their clients reconnect through the
// gateway with Last-Event-ID and receive every revision they missed exactly once, in order.
const ADMIN = { email: 'admin@example.com', password: 'stream-admin-password-1' };
const run = natsServerBinary() ? describe : describe.skip;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

run('revision streams survive the SIGKILL of the replica serving them', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'vellum-stream-'));
  chmodSync(dataDir, 0o755);
  let nats: OwnNatsServer;
  let child: ChildProcess;
  let port: number;
  let token: string;
  let out = '';

  beforeAll(async () => {
    nats = await startOwnNatsServer();
    port = await freePort();
    child = startDistributedProcess(dataDir, port, {
      NATS_URL: nats.url,
      EMBEDDED_DB_PORT: String(await freePort()),
      ADMIN_PASSWORD: ADMIN.password,
      ...FAST_LOGINS,
      RATE_LIMITER_ENABLED: 'false',
      REVISIONS_REPLICAS: '2',
    });
    child.stdout?.on('data', (d) => (out += d));
    child.stderr?.on('data', (d) => (out += d));
    await waitForPing(port, 150_000);
    const login = await api(port, 'POST', '/auth/login', undefined, ADMIN);
    if (login.status !== 200) throw new Error(`login: ${login.status} ${out.slice(-2000)}`);
    token = String(login.json.data?.access_token);
    expect((await api(port, 'POST', '/collections', token, collectionWithId('notes', [{ field: 'title', type: 'string' }]))).status).toBe(200);
  }, 180_000);

  afterAll(async () => {
    await stopDistributedProcess(child, dataDir);
    await nats?.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  }, 90_000);

  it('reconnecting with Last-Event-ID, each client gets every revision once, in order', async () => {
    const url = `http://127.0.0.1:${port}`;
    const ids = async () => {
      const r = await api(port, 'GET', '/revisions?fields=id&sort=id&limit=-1&filter[collection][_eq]=notes', token);
      return (r.json.data as unknown as { id: number }[]).map((x) => x.id);
    };
    // four clients: the gateway spreads them over both replicas
    const followers: SseFollower[] = Array.from({ length: 4 }, () =>
      followSse(`${url}/revisions/stream?fields=id,collection,item&filter[collection][_eq]=notes`, { authorization: `Bearer ${token}` }),
    );
    const messages = (f: SseFollower) => f.events.filter((e) => e.event === 'message').map((e) => Number(e.id));
    await sleep(500);
    const load = startLoad({
      url: () => url,
      token,
      collection: 'notes',
      writers: 3,
      requesters: [],
      resetUrl: 'https://app.example.com/reset',
      timeoutMs: 10_000,
    });
    await load.acknowledged({ items: 30 });
    for (const f of followers) await f.until((e) => e.length > 5);
    const killed = killService(dataDir, 'revisions-1');
    // until the supervisor has it back, and writes go on meanwhile
    for (const end = Date.now() + 60_000; ; await sleep(200)) {
      const s = distributedState(dataDir).services['revisions-1']!;
      if (
        s.pid !== killed &&
        (await fetch(`${s.url}/server/ping`).then(
          (r) => r.ok,
          () => false,
        ))
      )
        break;
      if (Date.now() > end) throw new Error(`revisions-1 did not come back: ${out.slice(-2000)}`);
    }
    await load.acknowledged({ items: load.counts().items + 30 });
    await load.stop();
    let expected: number[] = [];
    for (const end = Date.now() + 60_000; ; await sleep(500)) {
      expected = await ids();
      if (expected.length >= load.counts().items) break;
      if (Date.now() > end) throw new Error('the revisions of the acknowledged writes were not all recorded');
    }
    // a write that timed out may still have committed: its revision may come after this read (compared below with a later one)
    for (const f of followers) await f.until(() => (messages(f).at(-1) ?? 0) >= expected.at(-1)!, 30_000);
    followers.forEach((f) => f.stop());
    // a stream holds a revision only once every earlier one is recorded: a read now has all up to its last
    expected = await ids();
    const reconnected = followers.filter((f) => f.reconnects > 0).length;
    console.log(`stream crash: ${expected.length} revisions, ${reconnected} of 4 clients reconnected after the SIGKILL`);
    expect(reconnected).toBeGreaterThan(0);
    for (const f of followers) {
      const got = messages(f);
      expect(got).toEqual(expected.filter((id) => id >= got[0]! && id <= got.at(-1)!));
      expect(got[0]).toBeLessThanOrEqual(expected[5]!);
    }
  }, 300_000);
});
