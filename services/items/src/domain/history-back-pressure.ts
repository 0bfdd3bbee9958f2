import type { Pool } from 'pg';
import { errors } from '@vellum/errors';
import { historyLagMs } from '../data/history-lag.repository';

export interface HistoryBackPressureOptions {
  /** The oldest unrecorded change may be this old before writes are held (HISTORY_LAG_LIMIT; 0: never held). */
  limitMs: number;
  /** A held write waits this long for the history to come back under the limit, then is 503 (HISTORY_LAG_WAIT). */
  waitMs: number;
  /** How often the lag is sampled (one indexed statement, whatever the write rate). */
  sampleMs?: number;
}

const IDLE_AFTER_MS = 1000;

/**
 * Back-pressure: writes are held while the history is more than `limitMs` behind, up to `waitMs`, then
 * refused with 503 SERVICE_UNAVAILABLE + Retry-After, so the revision backlog stays bounded instead of growing
 * for as long as the load lasts. The lag is sampled in the background; a write under the limit costs a comparison.
 */
export class HistoryBackPressure {
  private lagMs = 0;
  private readonly timer?: NodeJS.Timeout;
  private sampling = false;
  /** When a write last asked (admit): with none for a second the lag is not sampled (nothing would wait on it). */
  private lastAsked = 0;

  constructor(
    private readonly pool: Pool,
    private readonly opts: HistoryBackPressureOptions,
  ) {
    if (opts.limitMs <= 0) return; // off: nothing sampled
    this.timer = setInterval(() => void this.sample(), opts.sampleMs ?? 50);
    this.timer.unref();
  }

  /** The last sampled lag, ms. */
  get lag(): number {
    return this.lagMs;
  }

  /** Undefined when a write may go now; else a promise that resolves when it may, or rejects with the 503. */
  admit(): Promise<void> | undefined {
    if (this.opts.limitMs <= 0) return undefined;
    this.lastAsked = Date.now();
    if (this.lagMs <= this.opts.limitMs) return undefined;
    return this.hold();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private async hold(): Promise<void> {
    const until = Date.now() + this.opts.waitMs;
    while (this.lagMs > this.opts.limitMs) {
      this.lastAsked = Date.now(); // a held write keeps the sampling going
      if (Date.now() >= until)
        throw errors.backPressure('revisions', `history ${Math.round(this.lagMs)} ms behind`, Math.max(1, Math.ceil(this.opts.waitMs / 1000)));
      await new Promise((r) => setTimeout(r, Math.min(this.opts.sampleMs ?? 50, Math.max(1, until - Date.now()))));
    }
  }

  private async sample(): Promise<void> {
    // no write for a second: no statement (the first write after the pause is admitted on the last reading, the
    // next ones on a fresh one, sampleMs later)
    if (this.sampling || Date.now() - this.lastAsked > IDLE_AFTER_MS) return;
    this.sampling = true;
    try {
      this.lagMs = await historyLagMs(this.pool);
    } catch {
      // the database is unreachable: the write itself will say so; keep the last figure
    } finally {
      this.sampling = false;
    }
  }
}
