import { runningService } from './listen';

describe('runningService', () => {
  it('stops once: later calls wait for the same stop', async () => {
    let runs = 0;
    let finish!: () => void;
    const service = runningService({
      name: 's',
      url: 'http://127.0.0.1:1',
      health: async () => ({ status: 'ok' }) as never,
      stop: () => {
        runs++;
        return new Promise<void>((r) => (finish = r));
      },
    });
    const first = service.stop();
    const second = service.stop();
    expect(second).toBe(first);
    finish();
    await first;
    await service.stop();
    expect(runs).toBe(1);
  });
});
