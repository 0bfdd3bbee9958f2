import { cpus } from 'node:os';
import { hash, verify, type Algorithm } from '@node-rs/argon2';
import { ConcurrencyLimiter } from './concurrency-limiter';

/** Algorithm.Argon2id (a const enum, not importable under isolatedModules). */
const ARGON2ID = 2 as Algorithm;

export interface HashParams {
  memoryKib: number;
  iterations: number;
  parallelism: number;
}

/** argon2id in PHC form (@node-rs/argon2: ~2.6× faster than `argon2` here at equal parameters, no install script). */
export class PasswordHasher {
  readonly limiter: ConcurrencyLimiter;
  private dummy?: Promise<string>;

  constructor(
    readonly params: HashParams,
    opts: { concurrency?: number; queueLimit?: number } = {},
  ) {
    const concurrency = opts.concurrency || Math.max(1, cpus().length);
    this.limiter = new ConcurrencyLimiter(concurrency, opts.queueLimit || concurrency * 32);
  }

  private options() {
    return {
      algorithm: ARGON2ID,
      memoryCost: this.params.memoryKib,
      timeCost: this.params.iterations,
      parallelism: this.params.parallelism,
    };
  }

  hash(password: string): Promise<string> {
    return this.limiter.run(() => hash(password, this.options()));
  }

  /** Verify against the stored hash, or against a dummy hash with the same parameters (equal work) when none. */
  async verify(stored: string | null | undefined, password: string): Promise<boolean> {
    const target = stored && stored.startsWith('$argon2') ? stored : await this.dummyHash();
    const ok = await this.limiter.run(() => verify(target, password).catch(() => false));
    return ok && target === stored;
  }

  dummyHash(): Promise<string> {
    return (this.dummy ??= hash('vellum-dummy-password-for-equal-work', this.options()));
  }

  /** True when the stored hash was made with other parameters (or another algorithm) than the current ones. */
  needsRehash(stored: string): boolean {
    const m = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$/.exec(stored);
    if (!m) return true;
    return Number(m[1]) !== this.params.memoryKib || Number(m[2]) !== this.params.iterations || Number(m[3]) !== this.params.parallelism;
  }
}
