import type { Pool } from 'pg';
import type { Logger } from '@vellum/logger';

const MAX_TIMER_MS = 2 ** 31 - 1;
import { runRetention, type RetentionPolicy, type RetentionReport } from './retention';

/** pg_try_advisory_lock key: one replica runs retention at a time ("vellum retention"). */
export const RETENTION_LOCK_KEY = 0x76656c6c_72657465n;

export interface RetentionScheduler {
  /** Run now on this replica unless another holds the lock (then undefined). */
  runNow(): Promise<RetentionReport | undefined>;
  stop(): Promise<void>;
}

/**
 * Retention on a schedule: every `intervalMs` (the first run after `firstDelayMs`), on whichever replica takes
 * the advisory lock first; the others skip that round. `stop()` ends a run in hand after its current batch.
 */
export function scheduleRetention(o: {
  pool: Pool;
  policy: RetentionPolicy;
  intervalMs: number;
  firstDelayMs?: number;
  /** false: only runNow() (the `prune` command). */
  schedule?: boolean;
  logger: Logger;
}): RetentionScheduler {
  let stopping = false;
  let running: Promise<RetentionReport | undefined> | undefined;
  let timer: NodeJS.Timeout | undefined;

  const runNow = (): Promise<RetentionReport | undefined> =>
    (running ??= (async () => {
      const lock = await o.pool.connect();
      try {
        const { rows } = await lock.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1::int8) AS ok', [RETENTION_LOCK_KEY.toString()]);
        if (!rows[0]?.ok) return undefined;
        try {
          const started = Date.now();
          const report = await runRetention(o.pool, o.policy, { stopping: () => stopping });
          o.logger.info({ report, ms: Date.now() - started }, 'retention run');
          return report;
        } finally {
          await lock.query('SELECT pg_advisory_unlock($1::int8)', [RETENTION_LOCK_KEY.toString()]);
        }
      } finally {
        lock.release();
      }
    })().finally(() => (running = undefined)));

  const schedule = (ms: number) => {
    if (stopping) return;
    timer = setTimeout(
      () => {
        runNow()
          .catch((err) => o.logger.error({ err }, 'retention run failed'))
          .finally(() => schedule(o.intervalMs));
      },
      Math.min(ms, MAX_TIMER_MS),
    ); // longer would overflow setTimeout (it would fire at once)
    timer.unref();
  };
  const active = o.policy.revisionsMaxAgeMs !== undefined || o.policy.activityMaxAgeMs !== undefined;
  if (active && o.schedule !== false) schedule(o.firstDelayMs ?? Math.min(o.intervalMs, 60_000));

  return {
    runNow,
    async stop() {
      stopping = true;
      if (timer) clearTimeout(timer);
      await running?.catch(() => undefined);
    },
  };
}
