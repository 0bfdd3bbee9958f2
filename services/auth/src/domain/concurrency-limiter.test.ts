import { AppError } from '@vellum/errors';
import { ConcurrencyLimiter } from './concurrency-limiter';

const deferred = () => {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
};

describe('ConcurrencyLimiter', () => {
  it('runs `concurrency` tasks, queues `queueLimit`, sheds the rest with 503 + Retry-After (also via admit())', async () => {
    const limiter = new ConcurrencyLimiter(2, 1);
    const gates = [deferred(), deferred(), deferred()];
    let running = 0;
    let most = 0;
    const task = (i: number) => () => {
      running++;
      most = Math.max(most, running);
      return gates[i].promise.then(() => {
        running--;
        return i;
      });
    };
    const done = [0, 1, 2].map((i) => limiter.run(task(i)));
    expect(limiter.saturated).toBe(true);
    const shed = await limiter.run(task(0)).catch((e: unknown) => e);
    expect(shed).toBeInstanceOf(AppError);
    expect(shed).toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503, headers: { 'Retry-After': '1' } });
    expect(() => limiter.admit()).toThrow(AppError);
    expect(limiter.shed).toBe(2);

    gates.forEach((g) => g.resolve());
    expect(await Promise.all(done)).toEqual([0, 1, 2]);
    expect(most).toBe(2);
    expect(limiter.saturated).toBe(false);
    expect(() => limiter.admit()).not.toThrow();
  });
});
