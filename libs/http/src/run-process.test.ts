import { EventEmitter } from 'node:events';
import { runProcess } from './run-process';

const logger = () => ({ info: jest.fn(), error: jest.fn() });
const tick = () => new Promise((r) => setTimeout(r, 5));

describe('runProcess', () => {
  it('stops once on the first signal and exits 0', async () => {
    const signals = new EventEmitter();
    const exit = jest.fn();
    const stop = jest.fn(async () => {});
    await runProcess(async () => ({ logger: logger(), stop }), { signals, exit });
    signals.emit('SIGTERM');
    await tick();
    expect(stop).toHaveBeenCalledTimes(1);
    expect(exit).toHaveBeenCalledWith(0);
  });

  it('exits 1 on a second signal while draining, and when the drain takes too long', async () => {
    const signals = new EventEmitter();
    const exit = jest.fn();
    await runProcess(async () => ({ logger: logger(), stop: () => new Promise<void>(() => {}) }), { signals, exit, graceMs: 20 });
    signals.emit('SIGINT');
    signals.emit('SIGINT');
    expect(exit).toHaveBeenCalledWith(1);
    exit.mockClear();
    await new Promise((r) => setTimeout(r, 40));
    expect(exit).toHaveBeenCalledWith(1);
  });

  it('exits 1 when the start fails or the stop throws', async () => {
    const exit = jest.fn();
    const err = jest.spyOn(console, 'error').mockImplementation(() => {});
    await runProcess(
      async () => {
        throw new Error('bad config');
      },
      { exit, signals: new EventEmitter() },
    );
    expect(exit).toHaveBeenCalledWith(1);
    err.mockRestore();
    const signals = new EventEmitter();
    const exit2 = jest.fn();
    await runProcess(
      async () => ({
        logger: logger(),
        stop: async () => {
          throw new Error('x');
        },
      }),
      { signals, exit: exit2 },
    );
    signals.emit('SIGTERM');
    await tick();
    expect(exit2).toHaveBeenCalledWith(1);
  });
});
