export interface DeadLetter {
  id: string;
  subject: string;
  data: unknown;
  reason: string;
  deliveryCount: number;
  /** ISO timestamp of the dead-lettering. */
  at: string;
  /** Addition: the consumer (group) that gave up on the message. */
  durable?: string;
  /** Addition: the message's application headers (x-request-id, traceparent); a replay carries them again. */
  headers?: Record<string, string>;
}
