import type { Handler } from './delivery';

export interface ConsumeOptions<T> {
  /** Consumer (group) name; members with the same durable share the work. */
  durable: string;
  handler: Handler<T>;
  /** Default 5. */
  maxDeliver?: number;
  /** Default 30000: unacked after this → redelivered (consumer died). */
  ackWaitMs?: number;
  /** Delays for successive naks, default [1000, 5000, 30000] (the last one repeats). */
  backoffMs?: number[];
  /** In-flight messages per member, default 1. */
  concurrency?: number;
  /** Streams: a subset of the stream's subjects. */
  filterSubject?: string;
}

export const consumeDefaults = {
  maxDeliver: 5,
  ackWaitMs: 30_000,
  backoffMs: [1000, 5000, 30_000],
  concurrency: 1,
} as const;

export type ResolvedConsumeOptions<T> = Required<Omit<ConsumeOptions<T>, 'filterSubject'>> & {
  filterSubject?: string;
};

/** Fills in defaults and rejects nonsense early (a zero concurrency would silently never consume). */
export function resolveConsumeOptions<T>(opts: ConsumeOptions<T>): ResolvedConsumeOptions<T> {
  const r: ResolvedConsumeOptions<T> = {
    durable: opts.durable,
    handler: opts.handler,
    maxDeliver: opts.maxDeliver ?? consumeDefaults.maxDeliver,
    ackWaitMs: opts.ackWaitMs ?? consumeDefaults.ackWaitMs,
    backoffMs: opts.backoffMs && opts.backoffMs.length > 0 ? [...opts.backoffMs] : [...consumeDefaults.backoffMs],
    concurrency: opts.concurrency ?? consumeDefaults.concurrency,
    filterSubject: opts.filterSubject,
  };
  if (!/^[A-Za-z0-9_-]+$/.test(r.durable)) throw new Error(`invalid durable name "${r.durable}" (use [A-Za-z0-9_-])`);
  if (typeof r.handler !== 'function') throw new Error('handler must be a function');
  if (!Number.isInteger(r.maxDeliver) || r.maxDeliver < 1) throw new Error('maxDeliver must be an integer ≥ 1');
  if (!Number.isInteger(r.concurrency) || r.concurrency < 1) throw new Error('concurrency must be an integer ≥ 1');
  if (!(r.ackWaitMs >= 1)) throw new Error('ackWaitMs must be ≥ 1');
  if (r.backoffMs.some((d) => !(d >= 0))) throw new Error('backoffMs must be non-negative numbers');
  return r;
}

/** The nak delay after the `deliveryCount`-th delivery failed. */
export function backoffDelay(backoffMs: readonly number[], deliveryCount: number): number {
  return backoffMs[Math.min(Math.max(deliveryCount - 1, 0), backoffMs.length - 1)];
}
