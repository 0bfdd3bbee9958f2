import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { connectNatsMessaging } from '../src';
import { describeMessagingContract } from './messaging-contract';

const natsUrl = process.env.NATS_URL || process.env.TEST_NATS_URL;
const prefix = () => `t${randomBytes(4).toString('hex')}_`;

if (!natsUrl) {
  console.warn(
    '\n######## SKIPPED: @vellum/messaging NATS JetStream tests — neither NATS_URL nor TEST_NATS_URL is set ########\n' +
      '######## (set NATS_URL=nats://127.0.0.1:4222, or let the global Jest setup start nats-server)        ########\n',
  );
}

const describeNats = natsUrl ? describe : describe.skip;

describeNats('NATS JetStream messaging', () => {
  describeMessagingContract('NATS JetStream', () =>
    connectNatsMessaging({ servers: natsUrl!, name: 'messaging-test', prefix: prefix() }),
  );

  it('fails to connect within connectTimeoutMs when nothing listens', async () => {
    const port = await freePort();
    const start = Date.now();
    await expect(
      connectNatsMessaging({
        servers: `nats://127.0.0.1:${port}`,
        name: 'messaging-test',
        connectTimeoutMs: 1000,
      }),
    ).rejects.toThrow(Error);
    expect(Date.now() - start).toBeLessThan(3000);
  });

  it('isolates prefixes: two instances with different prefixes do not see each other', async () => {
    const a = await connectNatsMessaging({ servers: natsUrl!, name: 'a', prefix: prefix() });
    const b = await connectNatsMessaging({ servers: natsUrl!, name: 'b', prefix: prefix() });
    try {
      await (await a.keyValue<number>('shared')).put('k', 1);
      expect(await (await b.keyValue<number>('shared')).get('k')).toBeUndefined();
    } finally {
      await a.destroy();
      await b.destroy();
      await Promise.all([a.close(), b.close()]);
    }
  });
});

const natsServerBinary = (process.env.PATH ?? '')
  .split(delimiter)
  .concat(['/usr/sbin', '/usr/local/bin'])
  .map((d) => join(d, 'nats-server'))
  .find((p) => existsSync(p));

if (natsUrl && !natsServerBinary)
  console.warn('######## SKIPPED: NATS outage test — no nats-server binary on PATH ########');

(natsUrl && natsServerBinary ? describe : describe.skip)('NATS outage (own nats-server)', () => {
  let dir: string;
  let port: number;
  let server: ChildProcess | undefined;

  const startServer = async () => {
    server = spawn(natsServerBinary!, ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', dir], {
      stdio: 'ignore',
    });
    const deadline = Date.now() + 10_000;
    for (;;) {
      try {
        const m = await connectNatsMessaging({
          servers: `nats://127.0.0.1:${port}`,
          name: 'probe',
          connectTimeoutMs: 500,
        });
        const h = await m.health();
        await m.close();
        if (h.status === 'ok') return;
      } catch {
        /* not up yet */
      }
      if (Date.now() > deadline) throw new Error('nats-server did not start');
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const stopServer = async () => {
    const s = server;
    server = undefined;
    if (!s || s.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      s.once('exit', () => resolve());
      s.kill('SIGKILL');
    });
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'vellum-nats-'));
    port = await freePort();
    await startServer();
  });
  afterAll(async () => {
    await stopServer();
    rmSync(dir, { recursive: true, force: true });
  });

  it('publish rejects within a bounded time while the server is down, and works again after it returns', async () => {
    const m = await connectNatsMessaging({
      servers: `nats://127.0.0.1:${port}`,
      name: 'outage-test',
      requestTimeoutMs: 2000,
    });
    try {
      const q = await m.workQueue('MAIL', { subjects: ['mail.>'] });
      const got: string[] = [];
      const sub = await q.consume({ durable: 'mailer', handler: async (d) => void got.push(d.id) });
      await q.publish('mail.send', {}, { id: 'before' });
      await waitUntil(() => got.includes('before'));

      await stopServer();
      const start = Date.now();
      await expect(q.publish('mail.send', {}, { id: 'during' })).rejects.toThrow(Error);
      expect(Date.now() - start).toBeLessThan(5000);
      expect((await m.health()).status).toBe('error');

      await startServer(); // same port and store: the client reconnects in the background
      await waitUntil(async () => (await m.health()).status === 'ok', 15_000);
      await q.publish('mail.send', {}, { id: 'after' });
      await waitUntil(() => got.includes('after'), 20_000);
      await sub.stop();
    } finally {
      await m.close();
    }
  }, 60_000);
});

async function waitUntil(cond: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const start = Date.now();
  while (!(await cond())) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}
