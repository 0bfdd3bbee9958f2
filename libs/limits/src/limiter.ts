/** A budget of `points` per key per window (fixed window from the key's first count). */
export interface LimiterOptions {
  /** Names the counters (Redis keys are `<store prefix><keyPrefix>:<key>`). */
  keyPrefix: string;
  points: number;
  durationMs: number;
}

/** A key's state after (or without) counting. */
export interface LimitState {
  /** Counted in the current window (this count included). */
  consumed: number;
  /** Points left; 0 when exhausted. */
  remaining: number;
  /** More than `points` counted: refuse until `resetAt`. */
  exceeded: boolean;
  /** When the current window ends (ms since epoch); now when nothing is counted. */
  resetAt: number;
}

export interface Limiter {
  readonly points: number;
  /** Count `n` (default 1) against `key`. Never rejects for an exhausted budget: see `exceeded`. */
  consume(key: string, n?: number): Promise<LimitState>;
  /** The key's state without counting. */
  peek(key: string): Promise<LimitState>;
  /** Forget the key's count. */
  reset(key: string): Promise<void>;
}
