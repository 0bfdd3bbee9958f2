import { setTimeout as delay } from 'node:timers/promises';
import type { Pool } from 'pg';
import { deletePublished } from './mark-rows';
import { relayBatch, type BatchOptions } from './relay-batch';
import { withTimeout, type RelayLogger } from './relay-types';
import type { WakeUp } from './wake-up';

/** What the loop, `idle`, `health` and `stop` share. */
export interface RelayState {
  stopping: boolean;
  /** Once stopping: when the drain gives up. */
  stopDeadline: number;
  /** Failed batches in a row, and the last one's message. */
  failures: number;
  lastError?: string;
  /** When published rows were last deleted. */
  lastCleanup: number;
  /** `idle()` callers waiting for a pass that finds nothing left. */
  idleWaiters: (() => void)[];
}

export interface RelayLoopOptions {
  batch: BatchOptions;
  wakeUp: WakeUp;
  log: RelayLogger;
  pollMs: number;
  /**
   * While rows keep coming, at least this long from one pass's start to the next's (0: at once): a busy outbox
   * goes out in fewer, larger batches — fewer statements and commits per row, larger batches for the consumers.
   * A full batch, a stop and an idle outbox do not wait.
   */
  batchIntervalMs: number;
  backoff: number[];
  retentionMs: number;
  state: RelayState;
}

/** Batches until stopped and drained: again at once after a full batch, else on a wake-up or the poll; backs off on failure. */
export async function runRelayLoop(o: RelayLoopOptions): Promise<void> {
  const { state, wakeUp } = o;
  while (!state.stopping || Date.now() < state.stopDeadline) {
    wakeUp.pending = false;
    // a batch that started before stop() may have missed rows committed just before it: drain needs one more
    const drainingPass = state.stopping;
    // likewise only waiters registered before this pass started can be told "idle" by it
    const idleAsked = state.idleWaiters.length;
    try {
      if ((await relayPass(o, drainingPass, idleAsked)) === 'drained') break;
    } catch (err) {
      if ((await backOff(o, err)) === 'stopping') break;
    }
  }
}

/** One batch, then what follows it: tell idle waiters, clean up hourly, wait unless more is pending. */
async function relayPass(o: RelayLoopOptions, drainingPass: boolean, idleAsked: number): Promise<'drained' | 'next'> {
  const { state, batch } = o;
  const started = performance.now();
  const n = await relayBatch(batch);
  state.failures = 0;
  state.lastError = undefined;
  if (n === batch.batchSize) return 'next';
  if (n === 0 && batch.tracker.awaiting.size === 0) {
    for (const w of state.idleWaiters.splice(0, idleAsked)) w();
    if (drainingPass) return 'drained';
  }
  if (Date.now() - state.lastCleanup > 3_600_000) {
    state.lastCleanup = Date.now();
    await cleanUp(batch.pool, o);
  }
  if (n > 0 || batch.tracker.backlog > 0) {
    // a timer counts from the event loop's cached time, which lags the clock after the process was descheduled (a
    // loaded machine): it can fire early, so what is left of the interval is waited for again
    const left = () => o.batchIntervalMs - (performance.now() - started);
    while (left() >= 1 && !state.stopping) await delay(left());
    return 'next';
  }
  await o.wakeUp.wait(state.stopping ? Math.max(0, Math.min(o.pollMs, state.stopDeadline - Date.now())) : o.pollMs);
  return 'next';
}

/** Published rows older than the retention are deleted (a failure only logged). */
async function cleanUp(pool: Pool, o: Pick<RelayLoopOptions, 'retentionMs' | 'log'>): Promise<void> {
  await deletePublished(pool, o.retentionMs).catch((err) => o.log.warn({ err }, 'outbox relay: cleanup failed'));
}

/** After a failed pass: count it, log it, wait the backoff (not when stopping). */
async function backOff(o: RelayLoopOptions, err: unknown): Promise<'stopping' | 'next'> {
  const { state, log, backoff } = o;
  state.failures++;
  state.lastError = (err as Error).message;
  const delay = backoff[Math.min(state.failures - 1, backoff.length - 1)];
  (state.failures === 1 ? log.warn : log.error).call(log, { err, failures: state.failures, retryInMs: delay }, 'outbox relay: publish failed');
  if (state.stopping) return 'stopping';
  await o.wakeUp.wait(delay);
  o.wakeUp.pending = false;
  return 'next';
}

/** Resolves once a pass registered after this call finds nothing left to publish (wakes the loop for it). */
export function whenIdle(state: RelayState, wake: () => void, timeoutMs: number): Promise<void> {
  return withTimeout(
    new Promise<void>((resolve) => {
      state.idleWaiters.push(resolve);
      wake();
    }),
    timeoutMs,
    'outbox idle',
  );
}
