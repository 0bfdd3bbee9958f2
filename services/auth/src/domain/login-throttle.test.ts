import { createLimiterStore, type LimiterStore } from '@vellum/limits';
import { LoginThrottle } from './login-throttle';

const SETTINGS = { AUTH_LOGIN_FAILURES_PER_ADDRESS: 10, AUTH_LOGIN_FAILURES_PER_ACCOUNT: 3, AUTH_LOGIN_FAILURE_WINDOW: 60_000 };

/** The memory store, with the account resets it is asked for counted. */
function countingStore(): { store: LimiterStore; resets: string[] } {
  const inner = createLimiterStore({ prefix: 'test:' });
  const resets: string[] = [];
  const store: LimiterStore = {
    ...inner,
    limiter: (o) => {
      const l = inner.limiter(o);
      return { points: l.points, consume: (key, n) => l.consume(key, n), peek: (key) => l.peek(key), reset: (key) => (resets.push(key), l.reset(key)) };
    },
  };
  return { store, resets };
}

describe('LoginThrottle', () => {
  it('a success resets the (address, account) count when the check found one, and asks the store nothing when it did not', async () => {
    const { store, resets } = countingStore();
    const t = new LoginThrottle(store, SETTINGS);
    await t.succeeded(await t.check('192.0.2.1', 'a@example.com'));
    expect(resets).toEqual([]);

    await t.failed(await t.check('192.0.2.1', 'a@example.com'));
    await t.failed(await t.check('192.0.2.1', 'A@example.com ')); // the same account (normalised)
    const seen = await t.check('192.0.2.1', 'a@example.com');
    expect(seen.accountCounted).toBe(true);
    await t.succeeded(seen);
    expect(resets).toHaveLength(1);
    // reset: three more failures are needed to spend the budget again
    for (let i = 0; i < 2; i++) await t.failed(await t.check('192.0.2.1', 'a@example.com'));
    expect(await t.failed(await t.check('192.0.2.1', 'a@example.com'))).toBe('account');
    await expect(t.check('192.0.2.1', 'a@example.com')).rejects.toMatchObject({ code: 'REQUESTS_EXCEEDED' });
  });
});
