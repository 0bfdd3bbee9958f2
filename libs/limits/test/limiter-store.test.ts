import { randomUUID } from 'node:crypto';
import { redisReachable, testRedisUrl } from '@vellum/testing';
import { createLimiterStore, type LimiterStore } from '../src';

const redisUrl = testRedisUrl();
const until = async (ok: () => Promise<boolean>, ms = 3000) => {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
};

const stores: LimiterStore[] = [];
afterAll(async () => {
  for (const s of stores) await s.close();
});

function behavesAsABudget(make: () => Promise<LimiterStore>) {
  it('counts per key up to points, then exceeded until the window ends; reset forgets a key', async () => {
    const store = await make();
    const l = store.limiter({ keyPrefix: `t${randomUUID()}`, points: 2, durationMs: 1000 });
    expect((await l.peek('a')).consumed).toBe(0);
    expect(await l.consume('a')).toMatchObject({ consumed: 1, remaining: 1, exceeded: false });
    expect(await l.consume('a')).toMatchObject({ consumed: 2, remaining: 0, exceeded: false });
    const over = await l.consume('a');
    expect(over).toMatchObject({ consumed: 3, exceeded: true });
    expect(over.resetAt - Date.now()).toBeGreaterThan(0);
    expect(over.resetAt - Date.now()).toBeLessThanOrEqual(1000);
    expect(await l.peek('a')).toMatchObject({ consumed: 3, exceeded: true });
    expect((await l.consume('b')).exceeded).toBe(false);
    await l.reset('a');
    expect(await l.consume('a')).toMatchObject({ consumed: 1, exceeded: false });
    await new Promise((r) => setTimeout(r, 1100));
    expect((await l.peek('b')).consumed).toBe(0);
  });
}

describe('memory', () => {
  behavesAsABudget(async () => {
    const s = createLimiterStore();
    stores.push(s);
    expect(s.kind).toBe('memory');
    return s;
  });
});

describe('redis (shared by replicas)', () => {
  let available = false;
  beforeAll(async () => {
    available = await redisReachable(redisUrl);
    if (!available) console.warn(`\n!!! REDIS LIMITER TESTS SKIPPED: no Redis at ${redisUrl} !!!\n`);
  });
  const redisStore = async () => {
    const s = createLimiterStore({ redisUrl, prefix: `vellum-test:${randomUUID()}:` });
    stores.push(s);
    await until(async () => (await s.health()).status === 'ok');
    return s;
  };

  it('two stores (two replicas) count the same key together', async () => {
    if (!available) return;
    const [a, b] = [await redisStore(), await redisStore()];
    const prefix = `shared:${randomUUID()}`;
    // the same store prefix: one namespace
    const sa = createLimiterStore({ redisUrl, prefix: 'vellum-test:' });
    const sb = createLimiterStore({ redisUrl, prefix: 'vellum-test:' });
    stores.push(sa, sb);
    await until(async () => (await sa.health()).status === 'ok' && (await sb.health()).status === 'ok');
    const la = sa.limiter({ keyPrefix: prefix, points: 3, durationMs: 5000 });
    const lb = sb.limiter({ keyPrefix: prefix, points: 3, durationMs: 5000 });
    const seen = [];
    for (let i = 0; i < 4; i++) seen.push((await (i % 2 ? lb : la).consume('client')).consumed);
    expect(seen).toEqual([1, 2, 3, 4]);
    expect((await lb.peek('client')).exceeded).toBe(true);
    // different store prefixes do not share
    expect((await a.limiter({ keyPrefix: prefix, points: 3, durationMs: 5000 }).consume('client')).consumed).toBe(1);
    expect((await b.limiter({ keyPrefix: prefix, points: 3, durationMs: 5000 }).consume('client')).consumed).toBe(1);
    await la.reset('client');
  });

  describe('behaves as a budget', () => {
    behavesAsABudget(async () => {
      if (!available) return createLimiterStore();
      return redisStore();
    });
  });

  it('Redis down: answers at once from memory (limits still hold per replica), health warns', async () => {
    const s = createLimiterStore({ redisUrl: 'redis://127.0.0.1:1' });
    stores.push(s);
    expect(s.kind).toBe('redis');
    const l = s.limiter({ keyPrefix: 'down', points: 1, durationMs: 5000 });
    const t = performance.now();
    expect((await l.consume('x')).exceeded).toBe(false);
    expect((await l.consume('x')).exceeded).toBe(true);
    expect(performance.now() - t).toBeLessThan(1000);
    expect((await s.health()).status).toBe('warn');
  });

  it('Redis down with whenRedisDown=fail: counts reject at once (the caller fails open), health says so', async () => {
    const s = createLimiterStore({ redisUrl: 'redis://127.0.0.1:1', whenRedisDown: 'fail' });
    stores.push(s);
    const l = s.limiter({ keyPrefix: 'down', points: 1, durationMs: 5000 });
    const t = performance.now();
    await expect(l.consume('x')).rejects.toThrow(/redis/i);
    await expect(l.consume('x')).rejects.toThrow(/redis/i);
    expect(performance.now() - t).toBeLessThan(1000);
    expect(await s.health()).toMatchObject({ status: 'warn', reason: expect.stringMatching(/fail open/) });
  });

  it('right after start, a count waits for the connection instead of missing Redis', async () => {
    if (!available) return;
    const prefix = `vellum-test:${randomUUID()}:`;
    const a = createLimiterStore({ redisUrl, prefix, whenRedisDown: 'fail' });
    const b = createLimiterStore({ redisUrl, prefix, whenRedisDown: 'fail' });
    stores.push(a, b);
    // no wait for health: the first counts of two fresh stores land in Redis, shared
    expect((await a.limiter({ keyPrefix: 'start', points: 5, durationMs: 5000 }).consume('k')).consumed).toBe(1);
    expect((await b.limiter({ keyPrefix: 'start', points: 5, durationMs: 5000 }).consume('k')).consumed).toBe(2);
  });
});
