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

  /** True when a task submitted now would be shed. */
  get saturated(): boolean {
    return this.active >= this.concurrency && this.waiting.length >= this.queueLimit;
  }

  /**
   * Sheds now (the same 503) when a task submitted now would be: a caller that does work of its own before the
   * task (a login's user lookup) refuses the excess before spending anything on it.
   */
  admit(): void {
    if (this.saturated) throw this.refuse();
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.concurrency) {
      if (this.waiting.length >= this.queueLimit) throw this.refuse();
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

  private refuse(): AppError {
    this.shed++;
    return new AppError(
      'SERVICE_UNAVAILABLE',
      'Service "auth" is unavailable.',
      { service: 'auth', reason: 'Too many password checks in progress' },
      { 'Retry-After': '1' },
    );
  }
}
