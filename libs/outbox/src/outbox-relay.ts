import { Pool } from 'pg';
import type { Messaging } from '@vellum/messaging';
import { listenForOutbox } from './listen-for-outbox';
import { deletePublished } from './mark-rows';
import { createPublishers } from './publish-rows';
import { relayBatch } from './relay-batch';
import { silentLogger, withTimeout, type OutboxDestination, type RelayLogger } from './relay-types';
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
  /** Rows per transaction (default 100). */
  batchSize?: number;
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
  health(): Promise<{ status: 'ok' | 'warn' | 'error'; reason?: string; pending?: number }>;
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
  const batchSize = opts.batchSize ?? 100;
  const backoff = opts.backoffMs?.length ? opts.backoffMs : [200, 1000, 5000, 15000];
  const retentionMs = opts.retentionMs ?? 7 * 86_400_000;
  const pool = new Pool({ connectionString: opts.connectionString, max: 2, application_name: 'vellum-outbox-relay' });
  pool.on('error', (err) => log.warn({ err }, 'outbox relay: idle connection error'));

  // claim → publish → mark, one transaction per batch (relay-batch); wake-ups: LISTEN/NOTIFY, polling covers the gaps
  const wakeUp = new WakeUp();
  const wake = () => wakeUp.wake();
  // Messaging that does not outlive this process (in-process): rows are marked once their consumers finished.
  const tracker = new SettleTracker(pool, wake);
  const batch = {
    pool,
    batchSize,
    tracker,
    settles: !opts.messaging.persistent,
    publisherFor: createPublishers(opts.messaging, opts.destinations),
    destinations: opts.destinations,
    timeoutMs: opts.publishTimeoutMs ?? 5000,
  };
  let stopping = false;
  const listener = await listenForOutbox({ connectionString: opts.connectionString, wake, log, retryMs: pollMs });

  // --- the loop ---
  let failures = 0;
  let lastError: string | undefined;
  let lastCleanup = 0;
  const idleWaiters: (() => void)[] = [];
  let stopDeadline = Infinity;
  const loop = (async () => {
    while (!stopping || Date.now() < stopDeadline) {
      wakeUp.pending = false;
      // a batch that started before stop() may have missed rows committed just before it: drain needs one more
      const drainingPass = stopping;
      // likewise only waiters registered before this pass started can be told "idle" by it
      const idleAsked = idleWaiters.length;
      try {
        const n = await relayBatch(batch);
        failures = 0;
        lastError = undefined;
        if (n === batchSize) continue;
        if (n === 0 && tracker.awaiting.size === 0) {
          for (const w of idleWaiters.splice(0, idleAsked)) w();
          if (drainingPass) break;
        }
        if (Date.now() - lastCleanup > 3_600_000) {
          lastCleanup = Date.now();
          await deletePublished(pool, retentionMs).catch((err) => log.warn({ err }, 'outbox relay: cleanup failed'));
        }
        if (n > 0 || tracker.backlog > 0) continue;
        await wakeUp.wait(stopping ? Math.max(0, Math.min(pollMs, stopDeadline - Date.now())) : pollMs);
      } catch (err) {
        failures++;
        lastError = (err as Error).message;
        const delay = backoff[Math.min(failures - 1, backoff.length - 1)];
        (failures === 1 ? log.warn : log.error).call(log, { err, failures, retryInMs: delay }, 'outbox relay: publish failed');
        if (stopping) break;
        await wakeUp.wait(delay);
        wakeUp.pending = false;
      }
    }
  })();

  return {
    wake,
    idle(timeoutMs = 10_000) {
      return withTimeout(
        new Promise<void>((resolve) => {
          idleWaiters.push(resolve);
          wake();
        }),
        timeoutMs,
        'outbox idle',
      );
    },
    async health() {
      try {
        const { rows } = await pool.query<{ n: string }>(`SELECT count(*) AS n FROM "outbox" WHERE "published_at" IS NULL`);
        const pending = Number(rows[0].n);
        if (failures > 0) return { status: failures > 3 ? 'error' : 'warn', reason: lastError, pending };
        return { status: 'ok', pending };
      } catch (err) {
        return { status: 'error', reason: (err as Error).message };
      }
    },
    async stats() {
      const { rows } = await pool.query<{ n: string; age: number | null }>(
        `SELECT count(*) AS n, extract(epoch FROM now() - min("created_at"))::float8 AS age FROM "outbox" WHERE "published_at" IS NULL`,
      );
      return { backlog: Number(rows[0].n), oldestAgeSeconds: Math.max(0, rows[0].age ?? 0) };
    },
    async stop(graceMs = 5000) {
      if (!stopping) {
        stopping = true;
        listener.halt();
        stopDeadline = Date.now() + graceMs;
        wake();
      }
      await loop;
      await tracker.mark().catch(() => undefined);
      await listener.close();
      await pool.end().catch(() => undefined);
    },
  };
}
