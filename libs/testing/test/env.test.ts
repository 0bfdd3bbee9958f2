import net from 'node:net';
import { freePort, testNatsUrl, uniqueId } from '../src';

test('testNatsUrl prefers NATS_URL, then TEST_NATS_URL', () => {
  const saved = { NATS_URL: process.env.NATS_URL, TEST_NATS_URL: process.env.TEST_NATS_URL };
  try {
    process.env.NATS_URL = 'nats://a:4222';
    process.env.TEST_NATS_URL = 'nats://b:4222';
    expect(testNatsUrl()).toBe('nats://a:4222');
    delete process.env.NATS_URL;
    expect(testNatsUrl()).toBe('nats://b:4222');
    delete process.env.TEST_NATS_URL;
    expect(testNatsUrl()).toBeUndefined();
  } finally {
    for (const [k, v] of Object.entries(saved))
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
  }
});

test('freePort returns a port that can be listened on', async () => {
  const port = await freePort();
  const srv = net.createServer();
  await new Promise<void>((resolve, reject) => srv.once('error', reject).listen(port, '127.0.0.1', resolve));
  await new Promise((r) => srv.close(r));
});

test('freePort draws distinct ports below the kernel ephemeral range (a listen(0) elsewhere cannot take them), skipping taken ones', async () => {
  const ports = await Promise.all(Array.from({ length: 50 }, () => freePort()));
  expect(new Set(ports).size).toBe(50);
  for (const p of ports) expect(p < 32768 && p >= 20000).toBe(true);
  // a taken port is never handed out: take one, force the first draw onto it, the next onto another
  const taken = 25_000;
  const blocker = net.createServer();
  const blocked = await new Promise<boolean>((resolve) => blocker.once('error', () => resolve(false)).listen(taken, '127.0.0.1', () => resolve(true)));
  const draws = [(taken - 20_000) / 12_768, 0.5];
  const random = jest.spyOn(Math, 'random').mockImplementation(() => draws.shift() ?? 0.75);
  try {
    const port = await freePort();
    if (blocked) expect(port).not.toBe(taken);
    // the taken port was drawn first and passed over: the answer comes from a later draw (the second, unless a
    // server of another test on this machine holds that one too)
    expect(random.mock.calls.length).toBeGreaterThanOrEqual(2);
    expect([20_000 + Math.floor(0.5 * 12_768), 20_000 + Math.floor(0.75 * 12_768)]).toContain(port);
  } finally {
    random.mockRestore();
    await new Promise((r) => blocker.close(r));
  }
});

test('uniqueId is unique and prefixed', () => {
  const ids = new Set(Array.from({ length: 1000 }, () => uniqueId('user')));
  expect(ids.size).toBe(1000);
  expect([...ids][0]).toMatch(/^user_[0-9a-z]+$/);
});
