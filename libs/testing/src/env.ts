import { randomBytes } from 'node:crypto';
import net from 'node:net';

/** The NATS server for tests: NATS_URL, else TEST_NATS_URL (set by the global setup), else undefined (skip). */
export function testNatsUrl(): string | undefined {
  return process.env.NATS_URL || process.env.TEST_NATS_URL || undefined;
}

/** The Redis for tests: REDIS_URL, else the machine's default (redis://127.0.0.1:6379). */
export function testRedisUrl(): string {
  return process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
}

/** Whether something accepts a TCP connection at the Redis URL's address within 300 ms (tests skip when not). */
export function redisReachable(url = testRedisUrl()): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const u = new URL(url);
    const s = net.connect({ host: u.hostname, port: Number(u.port || 6379) });
    s.setTimeout(300);
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
    s.once('timeout', () => (s.destroy(), resolve(false)));
  });
}

/** A short unique id: `<prefix>_<time><random>`, safe in identifiers, e-mail local parts and URLs. */
export function uniqueId(prefix = 'id'): string {
  return `${prefix}_${Date.now().toString(36)}${randomBytes(5).toString('hex')}`;
}
