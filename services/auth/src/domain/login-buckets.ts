import { createHash } from 'node:crypto';
import type { Limiter, LimiterStore } from '@vellum/limits';
import type { AuthConfig } from '../config';

type Settings = Pick<
  AuthConfig,
  'AUTH_LOGIN_ATTEMPTS' | 'AUTH_LOGIN_ATTEMPTS_WINDOW' | 'AUTH_OTP_ATTEMPTS' | 'AUTH_OTP_ATTEMPTS_WINDOW' | 'AUTH_SPRAY_THRESHOLD' | 'AUTH_POW_DURATION'
>;

/** Which password bucket a login attempt draws on: its trusted device's own, or the account's shared untrusted one. */
export type LoginBucket = { kind: 'device'; key: string } | { kind: 'untrusted'; key: string };

const SPRAY_WINDOW_MS = 60_000;

/** The account's key in the store: a hash of its normalised e-mail (unknown accounts get buckets too: same answers). */
export const accountKey = (email: string) => createHash('sha256').update(email.trim().toLowerCase()).digest('base64url');

/**
 * Failed-login budgets per account (OWASP's device cookies): a trusted device has its own bucket, every other client
 * shares the account's untrusted one; past AUTH_LOGIN_ATTEMPTS failures in a window of AUTH_LOGIN_ATTEMPTS_WINDOW
 * a bucket refuses until its window ends, so guessing stays within that rate however many addresses it comes from,
 * and a locked untrusted bucket never keeps a trusted device out. Wrong TOTP codes have one smaller budget per
 * account. Untrusted failures across all accounts past AUTH_SPRAY_THRESHOLD a minute switch on proof of work for
 * AUTH_POW_DURATION. Counted in the limiter store (Redis: shared by every auth replica).
 */
export class LoginBuckets {
  private readonly password: Limiter;
  private readonly otp: Limiter;
  private readonly spray?: Limiter;
  private readonly powOn?: Limiter;

  constructor(store: LimiterStore, s: Settings) {
    this.password = store.limiter({ keyPrefix: 'login-bucket', points: s.AUTH_LOGIN_ATTEMPTS, durationMs: s.AUTH_LOGIN_ATTEMPTS_WINDOW });
    this.otp = store.limiter({ keyPrefix: 'otp-bucket', points: s.AUTH_OTP_ATTEMPTS, durationMs: s.AUTH_OTP_ATTEMPTS_WINDOW });
    if (s.AUTH_SPRAY_THRESHOLD > 0) {
      this.spray = store.limiter({ keyPrefix: 'login-spray', points: s.AUTH_SPRAY_THRESHOLD, durationMs: SPRAY_WINDOW_MS });
      this.powOn = store.limiter({ keyPrefix: 'login-pow-on', points: 1, durationMs: s.AUTH_POW_DURATION });
    }
  }

  static bucketOf(account: string, deviceId: string | undefined): LoginBucket {
    return deviceId ? { kind: 'device', key: `device:${deviceId}` } : { kind: 'untrusted', key: `untrusted:${account}` };
  }

  async isLocked(b: LoginBucket): Promise<boolean> {
    return (await this.password.peek(b.key)).consumed >= this.password.points;
  }

  /** Counts a failure; true when this very failure locked the bucket. Untrusted failures also feed the spray count. */
  async failed(b: LoginBucket): Promise<boolean> {
    const [state] = await Promise.all([this.password.consume(b.key), b.kind === 'untrusted' ? this.sprayFailure() : undefined]);
    return state.consumed === this.password.points;
  }

  /** A success from a trusted device starts its count again (never the untrusted bucket's: attackers share it). */
  async succeeded(b: LoginBucket): Promise<void> {
    if (b.kind === 'device') await this.password.reset(b.key);
  }

  async otpLocked(account: string): Promise<boolean> {
    return (await this.otp.peek(account)).consumed >= this.otp.points;
  }

  /** Counts a wrong TOTP code; true when it locked the account's TOTP budget. */
  async otpFailed(account: string): Promise<boolean> {
    return (await this.otp.consume(account)).consumed === this.otp.points;
  }

  /** Whether untrusted logins must bring proof of work now. */
  async powRequired(): Promise<boolean> {
    return this.powOn ? (await this.powOn.peek('all')).consumed > 0 : false;
  }

  /** An admin's unlock: the account's untrusted and TOTP budgets and the given devices' buckets start again. */
  async clear(account: string, deviceIds: string[]): Promise<void> {
    await Promise.all([this.password.reset(`untrusted:${account}`), this.otp.reset(account), ...deviceIds.map((id) => this.password.reset(`device:${id}`))]);
  }

  private async sprayFailure(): Promise<void> {
    if (!this.spray || !this.powOn) return;
    const state = await this.spray.consume('all');
    if (state.consumed !== this.spray.points) return;
    // (re)starts the proof-of-work period: a spray that goes on keeps it on
    await this.powOn.reset('all');
    await this.powOn.consume('all');
  }
}
