import type { ConsumeOptions } from './consume-options';
import type { DeadLetter } from './dead-letter';
import type { Subscription } from './subscription';
import type { PublishOptions } from './work-queue';

/** Retained events; each consumer GROUP (durable) sees every event once; resumes where it left after restart. */
export interface EventStream {
  publish(subject: string, data: unknown, opts: PublishOptions): Promise<void>;
  subscribe<T>(opts: ConsumeOptions<T>): Promise<Subscription>;
  /** The most recent dead letters (oldest first), default limit 100. */
  deadLetters(limit?: number): Promise<DeadLetter[]>;
  /**
   * Publishes the (most recent) dead letter with this message id again to its subject, under a new message id,
   * and removes it from the dead letters. False when there is none. Consumers dedupe by the id in the payload.
   */
  replayDeadLetter(id: string): Promise<boolean>;
}
