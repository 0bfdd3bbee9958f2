import { withTransaction } from '@vellum/db';
import { AppError, errors } from '@vellum/errors';
import type { Accountability } from '@vellum/http';
import type { Logger } from '@vellum/logger';
import { enqueueOutbox } from '@vellum/outbox';
import type { Queryable } from '../data/items-pool';
import { versionsRepository, type DueVersion } from '../data/versions.repository';
import type { ChangeContext } from './item-change';
import type { ItemsDeps } from './items-deps';
import { promoteFailedMessage } from './promote-failed-event';
import { updateItemsIn } from './update-items.use-case';
import { asHashMismatch } from './promote-hash';
import { isStale } from './retry-on-schema-change';

/** SQLSTATEs worth another try rather than a failed schedule: serialization, deadlock (a schema change mid-promote: isStale). */
const TRANSIENT = new Set(['40001', '40P01']);

/** The access rules are not loaded yet (just after a start): the schedule waits for the next tick. */
class RulesNotLoaded extends Error {}

export interface VersionSchedulerOptions {
  logger: Pick<Logger, 'info' | 'warn' | 'error'>;
  /** The safety-net poll (VERSION_PUBLISH_POLL_INTERVAL; default 2 s): schedules written by other replicas are seen within it. */
  pollMs?: number;
}

/**
 * Scheduled promotes (issue 36): the version row is the job. Each tick claims the oldest due row with
 * `FOR UPDATE SKIP LOCKED` (one replica runs it), promotes it as the user who scheduled it with that role's rules
 * now, and marks it done or failed in the same transaction as the promote's own writes and events: a crash before
 * COMMIT leaves it scheduled (run again after the restart), after COMMIT it is done — exactly once, no idempotency
 * key. Then it sleeps until the nearest `publish_at` (at most `pollMs`); `wake()` looks again at once.
 */
export class VersionScheduler {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopped = true;
  private again = false;
  private readonly pollMs: number;

  constructor(
    private readonly deps: ItemsDeps,
    private readonly opts: VersionSchedulerOptions,
  ) {
    this.pollMs = opts.pollMs ?? 2000;
  }

  start(): void {
    this.stopped = false;
    this.wake();
  }

  /** Run what is due now and set the timer for the next one (a schedule was just written, or the timer fired). */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.running = this.tick().finally(() => {
      this.running = undefined;
      if (this.again) {
        this.again = false;
        this.wake();
      }
    });
  }

  /** Stop waking; a promote under way finishes (its transaction commits or rolls back) before this resolves. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** One pass: every due schedule this replica can claim, then the wait until the next (never a busy loop). */
  async tick(): Promise<void> {
    let wait = this.pollMs;
    try {
      while (!this.stopped && (await this.runOne()));
      const next = await versionsRepository.nextDueIn(this.deps.pool);
      // a due row another replica holds (next = 0) is looked at again shortly, not at once
      if (next !== null) wait = Math.min(this.pollMs, Math.max(next, 100));
    } catch (err) {
      if (!(err instanceof RulesNotLoaded)) this.opts.logger.warn({ err }, 'version scheduler: a pass failed, retrying');
    }
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.wake(), wait);
    this.timer.unref();
  }

  /** Claims and runs one due schedule; false when none is due (or all due ones are held by other replicas). */
  private async runOne(): Promise<boolean> {
    // back-pressure before a transaction is held, as a request's write would wait for the history
    await this.deps.history?.admit();
    return withTransaction(this.deps.pool, async (db) => {
      const v = await versionsRepository.claimDue(db);
      if (!v) return false;
      await db.query('SAVEPOINT scheduled_promote');
      try {
        const version = await this.promote(db, v);
        await db.query('RELEASE SAVEPOINT scheduled_promote');
        await versionsRepository.finish(db, v.id, 'done', null);
        this.opts.logger.info({ version: v.id, collection: v.collection, item: v.item, itemVersion: version }, 'scheduled promote done');
      } catch (err) {
        if (err instanceof RulesNotLoaded || isStale(err) || TRANSIENT.has((err as { code?: string }).code ?? '')) throw err;
        await db.query('ROLLBACK TO SAVEPOINT scheduled_promote'); // a dead connection throws here: retried later
        const reason = failureOf(err);
        await versionsRepository.finish(db, v.id, 'failed', reason);
        // visible in activity too, not only in the log: committed with the failed status or not at all
        await enqueueOutbox(db, [promoteFailedMessage(v, reason, this.deps.now())]);
        this.opts.logger.warn({ version: v.id, collection: v.collection, item: v.item, reason, err }, 'scheduled promote failed');
      }
      return true;
    });
  }

  /** The promote of `POST /versions/:id/promote`, as the scheduling user, checked against the hash of the schedule. */
  private async promote(db: Queryable, v: DueVersion): Promise<number | undefined> {
    const role = this.deps.rules.get(v.publish_role);
    if (!role && !v.publish_admin && this.deps.rules.size === 0) throw new RulesNotLoaded();
    // the role's rules as they are now; the token's admin flag at scheduling time only when the role has no entry
    const a: Accountability = { user: v.publish_user, role: v.publish_role, admin: role ? role.admin : v.publish_admin, app: false };
    if (this.deps.rules.fields(a, v.collection, 'read') === null) throw errors.forbidden();
    const ctx: ChangeContext = { accountability: a, now: this.deps.now(), requestId: `scheduled-promote:${v.id}`, promote: true };
    const expected = v.publish_force ? null : [Number(v.publish_hash ?? '0')];
    try {
      const { versions } = await updateItemsIn(db, this.deps, ctx, v.collection, [{ key: v.item, data: v.delta ?? {} }], expected);
      return versions[0];
    } catch (e) {
      return asHashMismatch(e, db, v.collection, v.item);
    }
  }
}

/** What `publish_error` says: the error's code and message (unexpected errors stay in the log). */
function failureOf(err: unknown): string {
  if (!(err instanceof AppError)) return 'INTERNAL_SERVER_ERROR: An unexpected error occurred.';
  if (err.code === 'VERSION_HASH_MISMATCH')
    return `VERSION_HASH_MISMATCH: the item changed since the promote was scheduled (its hash is now ${String(err.extensions.mainHash)})`;
  return `${err.code}: ${err.message}`;
}
