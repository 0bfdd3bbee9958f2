import { createRelayPool } from './relay-pool';
import type { Messaging } from '@vellum/messaging';
import { listenForOutbox } from './listen-for-outbox';
import { databaseOf, registerLocalRelay } from './local-wake';
import { createPublishers } from './publish-rows';
import { relayHealth, relayStats, type RelayHealth } from './relay-health';
import { runRelayLoop, whenIdle, type RelayState } from './relay-loop';
import { silentLogger, type OutboxDestination, type RelayLogger } from './relay-types';
import { SettleTracker } from './settle-tracker';
import { WakeUp } from './wake-up';

export type { OutboxDestination, RelayLogger } from './relay-types';

export interface OutboxRelayOptions {
  connectionString: string;
  messaging: Messaging;
  /** Destination name (the `destination` column) → how to publish it. */
  destinations: Record<string, OutboxDestination>;
  logger?: RelayLogger;
  /** Polling fallback when no notification arrives (default 1000 ms). */
  pollMs?: number;
  /** While rows keep coming, at least this long between two batches (default 0: at once; relay-loop.ts). */
  batchIntervalMs?: number;
  /** Rows per transaction (default 100). */
  batchSize?: number;
  /** In-process messaging: rows handed over and not yet handled by their consumers, at most (default 4 × batchSize). */
  maxAwaiting?: number;
  /** Delays after successive failures (the last repeats), default [200, 1000, 5000, 15000]. */
  backoffMs?: number[];
  /** A publish that takes longer counts as failed (default 5000 ms). */
  publishTimeoutMs?: number;
  /** Published rows older than this are deleted (default 7 days). */
  retentionMs?: number;
}

export interface OutboxRelay {
  /** Publish now instead of waiting for the next notification/poll. */
  wake(): void;
  /** Resolves once no unpublished row is left (or rejects after timeoutMs). For tests and drains. */
  idle(timeoutMs?: number): Promise<void>;
  health(): Promise<RelayHealth>;
  /** Unpublished rows and the age of the oldest, seconds (for metrics). */
  stats(): Promise<{ backlog: number; oldestAgeSeconds: number }>;
  /** Stop: publish what is pending (bounded by graceMs), then close the connections. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * The outbox relay: publishes unpublished rows in `seq` order with the row id as message id, marks them
 * published in the same transaction that locked them (`FOR UPDATE SKIP LOCKED`, so replicas never publish a row
 * twice at once; a crash after publish and before commit republishes with the same id, which the broker dedupes).
 * Woken by LISTEN/NOTIFY, with polling as a fallback; retries with backoff while messaging is down.
 */
export async function startOutboxRelay(opts: OutboxRelayOptions): Promise<OutboxRelay> {
  const log = opts.logger ?? silentLogger;
  const pollMs = opts.pollMs ?? 1000;
  const state: RelayState = { stopping: false, stopDeadline: Infinity, failures: 0, lastCleanup: 0, idleWaiters: [] };
  const pool = createRelayPool(opts.connectionString);
  // once stopping, a connection the server ends while pool.end() is closing it (a stop racing the database's own,
  // as at Ctrl-C) is expected: not reported
  pool.on('error', (err) => (state.stopping ? undefined : log.warn({ err }, 'outbox relay: idle connection error')));

  // claim → publish → mark, one transaction per batch (relay-batch); wake-ups: LISTEN/NOTIFY, polling covers the gaps
  const wakeUp = new WakeUp();
  const wake = () => wakeUp.wake();
  // Messaging that does not outlive this process (in-process): rows are marked once their consumers finished.
  const tracker = new SettleTracker(pool, wake);
  const batchSize = opts.batchSize ?? 100;
  const batch = {
    pool,
    batchSize,
    maxAwaiting: opts.maxAwaiting ?? 4 * batchSize,
    tracker,
    settles: !opts.messaging.persistent,
    publisherFor: createPublishers(opts.messaging, opts.destinations),
    destinations: opts.destinations,
    timeoutMs: opts.publishTimeoutMs ?? 5000,
  };
  const listener = await listenForOutbox({ connectionString: opts.connectionString, wake, log, retryMs: pollMs });
  // this process's writes to the database wake it directly once committed (enqueueOutbox)
  const unregister = registerLocalRelay(databaseOf(opts.connectionString), wake);
  const loop = runRelayLoop({
    batch,
    wakeUp,
    log,
    pollMs,
    batchIntervalMs: opts.batchIntervalMs ?? 0,
    backoff: opts.backoffMs?.length ? opts.backoffMs : [200, 1000, 5000, 15000],
    retentionMs: opts.retentionMs ?? 7 * 86_400_000,
    state,
  });

  return {
    wake,
    idle: (timeoutMs = 10_000) => whenIdle(state, wake, timeoutMs),
    health: () => relayHealth(pool, state),
    stats: () => relayStats(pool),
    async stop(graceMs = 5000) {
      if (!state.stopping) {
        state.stopping = true;
        unregister();
        listener.halt();
        state.stopDeadline = Date.now() + graceMs;
        wake();
      }
      await loop;
      await tracker.mark().catch(() => undefined);
      await listener.close();
      await pool.end().catch(() => undefined);
    },
  };
}
