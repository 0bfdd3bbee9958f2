import { randomBytes } from 'node:crypto';
import net from 'node:net';

/** The NATS server for tests: NATS_URL, else TEST_NATS_URL (set by the global setup), else undefined (skip). */
export function testNatsUrl(): string | undefined {
  return process.env.NATS_URL || process.env.TEST_NATS_URL || undefined;
}

/** A TCP port free on 127.0.0.1 right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.once('error', reject);
    srv.listen({ port: 0, host: '127.0.0.1', exclusive: true }, () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** A short unique id: `<prefix>_<time><random>`, safe in identifiers, e-mail local parts and URLs. */
export function uniqueId(prefix = 'id'): string {
  return `${prefix}_${Date.now().toString(36)}${randomBytes(5).toString('hex')}`;
}
