import type { ConsumeOptions } from './consume-options';
import type { DeadLetter } from './dead-letter';
import type { Subscription } from './subscription';

export interface PublishOptions {
  /** Message id: the same id twice within the dedupe window (≥ 2 min) is stored once. */
  id: string;
  headers?: Record<string, string>;
  /**
   * Messaging that is not `persistent` (in-process) calls this once every durable consumer group of the message
   * has finished with it: handled (its handler completed) or dead-lettered (`deadLetters` names who gave up and
   * why). A publisher that must not lose the message keeps its own durable copy until then (the outbox relay).
   * A persistent transport never calls it: the message is durable once `publish` resolved.
   */
  onSettled?: (outcome: SettleOutcome) => void;
}

export interface SettleOutcome {
  deadLetters: { durable: string; reason: string }[];
}

/** Each message is handled by ONE consumer of the durable; removed once acked. */
export interface WorkQueue {
  publish(subject: string, data: unknown, opts: PublishOptions): Promise<void>;
  consume<T>(opts: ConsumeOptions<T>): Promise<Subscription>;
  /** The most recent dead letters (oldest first), default limit 100. */
  deadLetters(limit?: number): Promise<DeadLetter[]>;
  /**
   * Publishes the (most recent) dead letter with this message id again to its subject, under a new message id,
   * and removes it from the dead letters. False when there is none. Consumers dedupe by the id in the payload.
   */
  replayDeadLetter(id: string): Promise<boolean>;
}
