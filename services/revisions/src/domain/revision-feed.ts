import type { Pool } from 'pg';
import type { Logger } from '@vellum/logger';
import { inProgressNow, readAfter, readHead, type FeedRow } from '../data/feed.repository';

/** A recorded revision as every stream of this process shares it: read once, `data`/`delta` parsed once. */
export interface FeedRevision {
  row: FeedRow;
  data: unknown;
  delta: unknown;
  /** Serialized events by stream shape (role and fields): streams that show a revision alike share one string. */
  shaped: Map<string, string>;
}

export type FeedListener = (revisions: FeedRevision[]) => void;

export interface FeedSubscription {
  /** Every revision up to this id is recorded for good; the listener gets the ones after it, in id order. */
  cursor: number;
  unsubscribe(): void;
}

export interface RevisionFeedOptions {
  logger: Pick<Logger, 'error' | 'warn'>;
  /** Rows per read (default 1000). */
  pageSize?: number;
  /** How soon a read is repeated while an id is missing (a transaction still in flight, or rolled back). Default 20 ms. */
  gapRetryMs?: number;
  /** A read now and then while streams are open, should a notice of a new batch be lost. Default 5 s. */
  safetyPollMs?: number;
  /** A missing id waited for this long is logged (a warning, once per id). Default 5 s. */
  reportGapAfterMs?: number;
  /**
   * At least this long between two batches handed to the streams (STREAM_BATCH_INTERVAL; default 0): each stream
   * writes once per batch, so a busy history goes out in fewer, larger writes.
   */
  batchIntervalMs?: number;
}

const parse = (text: string | null): unknown => (text === null ? null : JSON.parse(text));

/**
 * The process's one reader of new revisions: told that a batch was recorded (`poke`, by this process's writer or by
 * another replica's notice), it reads what follows its cursor once, and hands it to every stream — one database
 * read per batch, whatever the number of streams.
 *
 * Revision ids come from a sequence, so a transaction may commit id 10 before another commits id 9. The feed hands
 * out ids strictly in order and never skips one that will still appear: a missing id `g` seen in a snapshot S that
 * shows a later id belongs to a transaction of this database that was running in S (the writer takes its transaction
 * id, inserting the activity row, before it draws revision ids), or to one that rolled back. Those running in S are
 * among the transactions the same read lists as running after it (or had ended before); once none of those is in
 * progress in a later read's snapshot, that read shows `g` if it was committed; if not, it never will be.
 */
export class RevisionFeed {
  private cursor = 0;
  private started: Promise<void> | undefined;
  /** The transactions running when the missing id after the cursor was first seen missing. */
  private blocker: string[] | undefined;
  private readonly listeners = new Set<FeedListener>();
  private polling = false;
  private again = false;
  private retry: NodeJS.Timeout | undefined;
  /** The read waiting for `batchIntervalMs` since the last batch. */
  private wake: NodeJS.Timeout | undefined;
  private lastDispatch = 0;
  private safety: NodeJS.Timeout | undefined;
  private closed = false;
  /** When the missing id after the cursor was first seen missing, and whether that long wait was reported. */
  private gapSince: number | undefined;
  private gapReported = false;
  /** When the read in flight began (a read that never ends would stall every stream: it is reported). */
  private pollStarted = 0;
  /**
   * Database reads and revisions handed out (the bench's reads per revision); the streams' serializations of a
   * revision (one per read rule and fields, whatever the number of streams) and batch texts encoded (one per batch
   * and stream kind).
   */
  readonly stats = { reads: 0, revisions: 0, encoded: 0, texts: 0 };

  constructor(
    private readonly pool: Pick<Pool, 'query'>,
    private readonly opts: RevisionFeedOptions,
  ) {}

  /** Streams listening now. */
  get size(): number {
    return this.listeners.size;
  }

  async subscribe(listener: FeedListener): Promise<FeedSubscription> {
    await this.start();
    this.listeners.add(listener);
    const cursor = this.cursor;
    this.poke();
    return { cursor, unsubscribe: () => void this.listeners.delete(listener) };
  }

  /** A batch of revisions was recorded (here or at another replica): read what is new, once, soon. */
  poke(): void {
    if (this.closed || !this.started) return;
    if (this.polling) {
      this.again = true;
      return;
    }
    this.polling = true;
    const wait = this.lastDispatch + (this.opts.batchIntervalMs ?? 0) - Date.now();
    if (wait > 0) this.wake = setTimeout(() => void this.poll(), wait);
    else setImmediate(() => void this.poll());
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.retry);
    clearTimeout(this.wake);
    clearInterval(this.safety);
    this.listeners.clear();
  }

  /**
   * The cursor starts at the newest id; ids below it may still be committed by transactions running at that read,
   * so the feed is ready once they have all ended (catch-up reads below the cursor then see every one).
   */
  private start(): Promise<void> {
    this.started ??= (async () => {
      const head = await readHead(this.pool);
      this.cursor = head.id;
      for (;;) {
        const now = await inProgressNow(this.pool);
        if (!head.running.some((x) => now.has(x))) break;
        await new Promise((r) => setTimeout(r, 10));
      }
      const every = this.opts.safetyPollMs ?? 5000;
      this.safety = setInterval(() => {
        if (this.polling && Date.now() - this.pollStarted > 10_000)
          this.opts.logger.warn({ cursor: this.cursor, ms: Date.now() - this.pollStarted }, 'a read of new revisions for the streams is taking long');
        if (this.listeners.size > 0) this.poke();
      }, every);
      this.safety.unref();
    })().catch((err) => {
      this.started = undefined;
      throw err;
    });
    return this.started;
  }

  private async poll(): Promise<void> {
    const pageSize = this.opts.pageSize ?? 1000;
    const spaced = (this.opts.batchIntervalMs ?? 0) > 0;
    this.pollStarted = Date.now();
    let full = false;
    try {
      do {
        this.again = false;
        full = false;
        if (this.listeners.size === 0 || this.closed) break;
        const read = await readAfter(this.pool, this.cursor, pageSize);
        this.stats.reads++;
        const out: FeedRevision[] = [];
        let waiting = false;
        for (const row of read.rows) {
          if (row.id !== this.cursor + 1 && !(this.blocker !== undefined && !this.blocker.some((x) => read.inProgress.has(x)))) {
            // an id before this one may still commit: wait for the transactions running when it was first seen missing
            this.blocker ??= read.running;
            this.gapSince ??= Date.now();
            this.reportGap(row.id, read.inProgress);
            waiting = true;
            break;
          }
          out.push({ row, data: parse(row.data), delta: parse(row.delta), shaped: new Map() });
          this.cursor = row.id;
          this.blocker = undefined;
          this.gapSince = undefined;
          this.gapReported = false;
        }
        if (out.length) this.dispatch(out);
        if (waiting) this.retryIn(this.opts.gapRetryMs ?? 20);
        else if (read.rows.length === pageSize) full = true;
        // a batch recorded meanwhile waits for the interval (a full page is read on at once: it is history already)
      } while (full || (this.again && !spaced));
    } catch (err) {
      this.opts.logger.error({ err }, 'reading new revisions for the streams failed; trying again');
      this.retryIn(1000);
    } finally {
      this.polling = false;
    }
    if (this.again) {
      this.again = false;
      this.poke();
    }
  }

  /** A missing id waited for long (`reportGapAfterMs`): said once, with the transactions it waits for. */
  private reportGap(next: number, inProgress: Set<string>): void {
    if (this.gapReported || this.gapSince === undefined || Date.now() - this.gapSince < (this.opts.reportGapAfterMs ?? 5000)) return;
    this.gapReported = true;
    const blocker = this.blocker ?? [];
    const waitingFor = blocker.filter((x) => inProgress.has(x));
    this.opts.logger.warn({ cursor: this.cursor, next, blocker, waitingFor }, 'the revision streams wait for a missing revision id');
  }

  private retryIn(ms: number): void {
    clearTimeout(this.retry);
    this.retry = setTimeout(() => this.poke(), ms);
    this.retry.unref();
  }

  private dispatch(revisions: FeedRevision[]): void {
    this.lastDispatch = Date.now();
    this.stats.revisions += revisions.length;
    for (const listener of [...this.listeners]) {
      try {
        listener(revisions);
      } catch (err) {
        this.opts.logger.error({ err }, 'a revision stream failed on new revisions');
      }
    }
  }
}
