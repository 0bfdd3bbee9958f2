import type { ConsumeOptions } from './consume-options';
import type { DeadLetter } from './dead-letter';
import type { Subscription } from './subscription';

export interface PublishOptions {
  /** Message id: the same id twice within the dedupe window (≥ 2 min) is stored once. */
  id: string;
  headers?: Record<string, string>;
}

/** Each message is handled by ONE consumer of the durable; removed once acked. */
export interface WorkQueue {
  publish(subject: string, data: unknown, opts: PublishOptions): Promise<void>;
  consume<T>(opts: ConsumeOptions<T>): Promise<Subscription>;
  /** The most recent dead letters (oldest first), default limit 100. */
  deadLetters(limit?: number): Promise<DeadLetter[]>;
}
