import type { EventStream } from './event-stream';
import type { KeyValueMap, KeyValueOptions } from './key-value-map';
import type { WorkQueue } from './work-queue';

export interface StreamOptions {
  subjects: string[];
  /** Addition: events older than this are discarded (default: kept). Ignored by work queues. */
  maxAgeMs?: number;
}

export interface Health {
  status: 'ok' | 'error';
  reason?: string;
}

export interface Messaging {
  /**
   * True when a published message is stored outside this process (NATS JetStream): it survives a crash of the
   * publisher. False for in-process messaging: there, `PublishOptions.onSettled` tells when it may be forgotten.
   */
  readonly persistent: boolean;
  /** name = stream name, e.g. 'MAIL' with ['mail.>']. */
  workQueue(name: string, opts: StreamOptions): Promise<WorkQueue>;
  /** e.g. 'ITEMS' with ['items.>']. */
  eventStream(name: string, opts: StreamOptions): Promise<EventStream>;
  /** e.g. 'vellum_access'. */
  keyValue<T>(bucket: string, opts?: KeyValueOptions): Promise<KeyValueMap<T>>;
  health(): Promise<Health>;
  close(): Promise<void>;
}
