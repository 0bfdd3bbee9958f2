import { WakeUp } from './wake-up';

describe('WakeUp', () => {
  it('resolves a wait at the next wake(), at once when one is pending, else after the timeout', async () => {
    const w = new WakeUp();
    const t0 = Date.now();
    const waiting = w.wait(10_000);
    w.wake();
    await waiting;
    expect(Date.now() - t0).toBeLessThan(1000);
    expect(w.pending).toBe(true);
    await w.wait(10_000); // pending: at once
    w.pending = false;
    const t1 = Date.now();
    await w.wait(30);
    expect(Date.now() - t1).toBeGreaterThanOrEqual(25);
    w.wake(); // no waiter: only marks pending
    expect(w.pending).toBe(true);
  });
});
