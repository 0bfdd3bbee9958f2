import { randomBytes } from 'node:crypto';

/** The NATS server for tests: NATS_URL, else TEST_NATS_URL (set by the global setup), else undefined (skip). */
export function testNatsUrl(): string | undefined {
  return process.env.NATS_URL || process.env.TEST_NATS_URL || undefined;
}

/** A short unique id: `<prefix>_<time><random>`, safe in identifiers, e-mail local parts and URLs. */
export function uniqueId(prefix = 'id'): string {
  return `${prefix}_${Date.now().toString(36)}${randomBytes(5).toString('hex')}`;
}
