import type { Pool } from 'pg';
import type { SettleOutcome } from '@vellum/messaging';

/** `last_error` of a row whose consumer gave up on it (in-process messaging): `dead letter: <durable>: <reason>`. */
export const DEAD_LETTER_PREFIX = 'dead letter: ';

/**
 * For messaging that does not outlive the process (in-process): rows handed over stay unpublished until every
 * durable consumer has finished with them (`onSettled`), then they are marked. Until then the relay skips them
 * (`awaiting`); after a crash nothing is marked and the relay publishes them again under the same id.
 */
export class SettleTracker {
  readonly awaiting = new Set<string>();
  private settled: Settled[] = [];

  constructor(
    private readonly pool: Pool,
    private readonly wake: () => void,
  ) {}

  /** Settled rows not marked yet. */
  get backlog(): number {
    return this.settled.length;
  }

  /** Call before publishing row `id`; pass the result as the publish's `onSettled`. */
  handOver(id: string): (o: SettleOutcome) => void {
    this.awaiting.add(id);
    return (o) => {
      this.settled.push({ id, deadLetters: o.deadLetters });
      this.wake();
    };
  }

  /** The publish of `id` failed: it is published again on the next round (unless it settled meanwhile). */
  failed(id: string): void {
    if (!this.settled.some((x) => x.id === id)) this.awaiting.delete(id);
  }

  /** The settled rows not marked yet, taken out (give them back with `putBack` when marking fails, else `marked`). */
  take(): Settled[] {
    const batch = this.settled;
    this.settled = [];
    return batch;
  }

  putBack(batch: Settled[]): void {
    this.settled.push(...batch); // marked on the next round
  }

  /** These rows are marked: no longer awaited. */
  marked(batch: Settled[]): void {
    for (const s of batch) this.awaiting.delete(s.id);
  }

  /** Marks the rows whose consumers have finished; a dead-lettered row keeps who gave up and why in last_error. */
  async mark(): Promise<void> {
    if (this.settled.length === 0) return;
    const batch = this.take();
    try {
      const plain = batch.filter((s) => s.deadLetters.length === 0).map((s) => s.id);
      if (plain.length) await this.pool.query(`UPDATE "outbox" SET "published_at" = now() WHERE "id" = ANY($1::uuid[])`, [plain]);
      await markDeadLettered(this.pool, batch);
    } catch (err) {
      this.putBack(batch);
      throw err;
    }
    this.marked(batch);
  }
}

/** A handed-over row whose consumers are done, and who of them gave up on it. */
export interface Settled {
  id: string;
  deadLetters: SettleOutcome['deadLetters'];
}

/** The dead-lettered rows of `batch` marked, each with who gave up and why in last_error (one statement each: rare). */
export async function markDeadLettered(pool: Pick<Pool, 'query'>, batch: Settled[]): Promise<void> {
  for (const s of batch.filter((b) => b.deadLetters.length > 0)) {
    const reason = s.deadLetters.map((d) => `${d.durable}: ${d.reason}`).join('; ');
    await pool.query(`UPDATE "outbox" SET "published_at" = now(), "last_error" = $2 WHERE "id" = $1`, [s.id, `${DEAD_LETTER_PREFIX}${reason}`.slice(0, 1000)]);
  }
}
