/** One delivery of a message to a consumer. `data` is the JSON-decoded payload. */
export interface Delivery<T = unknown> {
  /** The message id given at publish (dedupe key). */
  id: string;
  subject: string;
  data: T;
  /** Application headers (e.g. x-request-id, traceparent); transport headers are not included. */
  headers: Record<string, string>;
  /** 1 on first delivery. */
  deliveryCount: number;
  ack(): Promise<void>;
  /** Redeliver later (after `delayMs`, default immediately). */
  nak(delayMs?: number): Promise<void>;
  /** Permanent failure: dead-letter now, never redeliver. */
  term(reason: string): Promise<void>;
  /** Addition: tell the broker the handler is still working (resets the ack-wait timer). */
  working(): Promise<void>;
}

/**
 * Resolves without explicit ack → ack; throws → nak with the next backoff delay; when `deliveryCount` reaches
 * `maxDeliver` and it fails again → dead letter (reason = the error's message).
 */
export type Handler<T> = (d: Delivery<T>) => Promise<void>;
