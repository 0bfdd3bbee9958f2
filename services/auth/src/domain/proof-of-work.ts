import { createHash, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Limiter, LimiterStore } from '@vellum/limits';
import type { SigningKeys } from '../data/signing-keys';

const CHALLENGE_TTL_MS = 5 * 60_000;

/** Leading zero bits of a digest. */
export function leadingZeroBits(digest: Buffer): number {
  let bits = 0;
  for (const byte of digest) {
    if (byte === 0) {
      bits += 8;
      continue;
    }
    return bits + Math.clz32(byte) - 24;
  }
  return bits;
}

/** SHA-256 of `<challenge>:<nonce>`, the work a solution proves. */
export const powDigest = (challenge: string, nonce: string) => createHash('sha256').update(`${challenge}:${nonce}`).digest();

/** A solution by brute force (what the login form does in the browser; tests and API clients use this). */
export function solveChallenge(challenge: string, difficulty: number): string {
  for (let n = 0; ; n++) if (leadingZeroBits(powDigest(challenge, String(n))) >= difficulty) return `${challenge}:${n}`;
}

/**
 * Hashcash-style proof of work for untrusted logins during a password spray: a challenge is
 * `<random>.<expiry ms>.<difficulty>.<mac>` (HMAC with a key derived from the signing key: no state until used);
 * a solution `<challenge>:<nonce>` is accepted once (a one-point limiter key per challenge) before it expires.
 */
export class ProofOfWork {
  private readonly key: Buffer;
  private readonly used: Limiter;

  constructor(keys: SigningKeys, store: LimiterStore) {
    const der = keys.privateKey.export({ format: 'der', type: 'pkcs8' });
    this.key = Buffer.from(hkdfSync('sha256', der, 'vellum-auth', 'login-proof-of-work', 32));
    this.used = store.limiter({ keyPrefix: 'pow-used', points: 1, durationMs: CHALLENGE_TTL_MS });
  }

  challenge(difficulty: number, now: Date): string {
    const body = `${randomBytes(12).toString('base64url')}.${now.getTime() + CHALLENGE_TTL_MS}.${difficulty}`;
    return `${body}.${this.mac(body)}`;
  }

  /** Whether `solution` solves an unexpired challenge of ours at `difficulty` or more, not used before. */
  async accept(solution: string | undefined, difficulty: number, now: Date): Promise<boolean> {
    const at = solution?.lastIndexOf(':') ?? -1;
    if (!solution || at === -1 || solution.length > 200) return false;
    const challenge = solution.slice(0, at);
    const parts = challenge.split('.');
    if (parts.length !== 4) return false;
    const body = parts.slice(0, 3).join('.');
    const given = Buffer.from(parts[3]!);
    const expected = Buffer.from(this.mac(body));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false;
    if (Number(parts[1]) < now.getTime() || Number(parts[2]) < difficulty) return false;
    if (leadingZeroBits(powDigest(challenge, solution.slice(at + 1))) < Number(parts[2])) return false;
    return (await this.used.consume(parts[0]!)).consumed === 1;
  }

  private mac(body: string) {
    return createHmac('sha256', this.key).update(body).digest('base64url');
  }
}
