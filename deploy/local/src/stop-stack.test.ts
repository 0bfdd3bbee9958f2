import { StopStack } from './stop-stack';

const logger = () => ({ error: jest.fn() }) as unknown as import('@vellum/logger').Logger & { error: jest.Mock };

describe('StopStack', () => {
  it('stops in reverse order, once; a failing stop is logged and the rest still stop', async () => {
    const log = logger();
    const stack = new StopStack(log);
    const order: string[] = [];
    stack.push({ name: 'a', stop: async () => void order.push('a') });
    stack.push({ name: 'b', stop: async () => Promise.reject(new Error('stuck')) });
    stack.push({ name: 'c', stop: async () => void order.push('c') });
    await stack.stopAll();
    await stack.stopAll();
    expect(order).toEqual(['c', 'a']);
    expect(log.error).toHaveBeenCalledTimes(1);
    expect(log.error.mock.calls[0]![1]).toBe('stopping b failed');
  });

  it('starting(): a start that throws stops what it had started, then the error goes on', async () => {
    const stack = new StopStack(logger());
    const stopped: string[] = [];
    const boom = new Error('port in use');
    await expect(
      stack.starting(async () => {
        stack.push({ name: 'postgres', stop: async () => void stopped.push('postgres') });
        throw boom;
      }),
    ).rejects.toBe(boom);
    expect(stopped).toEqual(['postgres']);
    expect(await stack.starting(async () => 'up')).toBe('up');
  });
});
