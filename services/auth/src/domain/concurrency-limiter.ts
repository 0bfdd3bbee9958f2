import { AppError } from '@vellum/errors';

/**
 * Runs at most `concurrency` tasks at once with at most `queueLimit` waiting; beyond that it sheds at once with
 * 503 SERVICE_UNAVAILABLE + Retry-After instead of letting a queue (and the latency) grow without bound.
 */
export class ConcurrencyLimiter {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  shed = 0;

  constructor(
    readonly concurrency: number,
    readonly queueLimit: number,
  ) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.concurrency) {
      if (this.waiting.length >= this.queueLimit) {
        this.shed++;
        throw new AppError(
          'SERVICE_UNAVAILABLE',
          'Service "auth" is unavailable.',
          { service: 'auth', reason: 'Too many password checks in progress' },
          { 'Retry-After': '1' },
        );
      }
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.active++;
    }
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }
}
