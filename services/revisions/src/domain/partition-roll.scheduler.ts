import type { Pool } from 'pg';
import type { Logger } from '@vellum/logger';

const MAX_TIMER_MS = 2 ** 31 - 1;
import { rollPartitions } from '../data/partition-roll';

/**
 * The monthly partitions kept rolling: at start (after `firstDelayMs`) and every `intervalMs`, on whichever replica
 * takes the roll's advisory lock. A round that fails (a lock not granted in time) is logged and tried again next
 * round; until then the open partition just keeps taking rows.
 */
export function schedulePartitionRoll(o: { pool: Pool; intervalMs: number; firstDelayMs: number; logger: Logger }): { stop(): Promise<void> } {
  let stopped = false;
  let running: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  const round = async () => {
    try {
      const report = await rollPartitions(o.pool);
      if (report && Object.keys(report).length > 0) o.logger.info({ report }, 'partitions rolled');
    } catch (err) {
      o.logger.warn({ err }, 'partition roll failed; retried next round');
    }
  };
  const schedule = (ms: number) => {
    if (stopped) return;
    timer = setTimeout(
      () => {
        running = round().finally(() => {
          running = undefined;
          schedule(o.intervalMs);
        });
      },
      Math.min(ms, MAX_TIMER_MS),
    ); // longer would overflow setTimeout (it would fire at once)
    timer.unref();
  };
  schedule(o.firstDelayMs);
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
