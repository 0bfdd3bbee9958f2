/** Where a destination name of the outbox goes. */
export type OutboxDestination = { type: 'queue'; subjects: string[] } | { type: 'stream'; subjects: string[] } | { type: 'kv' };

export interface RelayLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export const silentLogger: RelayLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** An unpublished outbox row as the relay claims it. */
export interface OutboxRecord {
  id: string;
  destination: string;
  subject: string;
  /** The JSON value; in-process hand-over reads it as its text, a `RawJson` published as it is. */
  payload: unknown;
  headers: Record<string, string>;
}

/** `p`, or a rejection `<what>: no answer within <ms> ms` once `ms` have passed. */
export function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let t: NodeJS.Timeout | undefined;
  return Promise.race([
    p,
    new Promise<T>((_, reject) => {
      t = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(t));
}
