import { createHash } from 'node:crypto';
import { errors } from '@vellum/errors';
import type { Limiter, LimiterStore, LimitState } from '@vellum/limits';
import type { AuthConfig } from '../config';

export type ThrottleScope = 'address' | 'account';

/** One login attempt's counter keys (the account's is a hash: made once) and whether its account count was above 0. */
export interface ThrottledAttempt {
  address: string;
  account: string;
  accountCounted: boolean;
}

type Settings = Pick<AuthConfig, 'AUTH_LOGIN_FAILURES_PER_ADDRESS' | 'AUTH_LOGIN_FAILURES_PER_ACCOUNT' | 'AUTH_LOGIN_FAILURE_WINDOW'>;

/**
 * Failed logins counted per client address and per (address, account), as mature auth servers do: past either
 * budget (AUTH_LOGIN_FAILURES_PER_ADDRESS / _PER_ACCOUNT per AUTH_LOGIN_FAILURE_WINDOW) a login is refused with
 * 429 REQUESTS_EXCEEDED + Retry-After before any password work, until the window ends. A success forgets the
 * (address, account) count, so the account's owner is not held back by their own typos. The account is keyed by
 * a hash of its normalised e-mail (no addresses in the shared store).
 */
export class LoginThrottle {
  private readonly address?: Limiter;
  private readonly account?: Limiter;

  constructor(store: LimiterStore, settings: Settings) {
    const durationMs = settings.AUTH_LOGIN_FAILURE_WINDOW;
    if (settings.AUTH_LOGIN_FAILURES_PER_ADDRESS > 0)
      this.address = store.limiter({ keyPrefix: 'login-fail:address', points: settings.AUTH_LOGIN_FAILURES_PER_ADDRESS, durationMs });
    if (settings.AUTH_LOGIN_FAILURES_PER_ACCOUNT > 0)
      this.account = store.limiter({ keyPrefix: 'login-fail:account', points: settings.AUTH_LOGIN_FAILURES_PER_ACCOUNT, durationMs });
  }

  /** Throws 429 REQUESTS_EXCEEDED (Retry-After) when the address or the (address, account) budget is spent. */
  async check(ip: string | null, email: string): Promise<ThrottledAttempt> {
    const keys = { address: addressKey(ip), account: accountKey(ip, email) };
    const [address, account] = await Promise.all([this.address?.peek(keys.address), this.account?.peek(keys.account)]);
    const refused = [address && refusal(this.address!, address), account && refusal(this.account!, account)].filter((r) => r !== undefined);
    if (refused.length) throw refused.reduce((a, b) => (a.resetAt >= b.resetAt ? a : b)).error;
    return { ...keys, accountCounted: (account?.consumed ?? 0) > 0 };
  }

  /** Counts a failed login; returns the budget this very failure spent (audited once), if any. */
  async failed(attempt: ThrottledAttempt): Promise<ThrottleScope | undefined> {
    const [address, account] = await Promise.all([this.address?.consume(attempt.address), this.account?.consume(attempt.account)]);
    if (address && address.consumed === this.address!.points) return 'address';
    if (account && account.consumed === this.account!.points) return 'account';
    return undefined;
  }

  /**
   * A successful login: the (address, account) count starts again. Nothing to reset (no store round trip, e.g.
   * Redis) when the check found none; a failure counted meanwhile by a parallel attempt then stays counted.
   */
  async succeeded(attempt: ThrottledAttempt): Promise<void> {
    if (attempt.accountCounted) await this.account?.reset(attempt.account);
  }
}

const addressKey = (ip: string | null) => ip ?? 'unknown';
const accountKey = (ip: string | null, email: string) => `${addressKey(ip)}|${createHash('sha256').update(email.trim().toLowerCase()).digest('base64url')}`;

function refusal(limiter: Limiter, state: LimitState) {
  if (state.consumed < limiter.points) return undefined;
  return { resetAt: state.resetAt, error: errors.requestsExceeded(limiter.points, new Date(state.resetAt)) };
}
