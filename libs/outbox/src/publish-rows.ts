import { RawJson } from '@vellum/contracts';
import type { Messaging, SettleOutcome } from '@vellum/messaging';
import { withTimeout, type OutboxDestination, type OutboxRecord } from './relay-types';

/** Publishes one row to its destination; `onSettled` (queues and streams) hears when its consumers are done. */
export type Publisher = (row: OutboxRecord, onSettled?: (o: SettleOutcome) => void) => Promise<void>;

/**
 * The publisher of each destination name, created once on first use (the stream, queue or bucket declared then);
 * a failed creation is forgotten, so the next row tries again. An unknown name rejects.
 */
export function createPublishers(messaging: Messaging, destinations: Record<string, OutboxDestination>): (name: string) => Promise<Publisher> {
  const publishers = new Map<string, Promise<Publisher>>();
  return (name) => {
    let p = publishers.get(name);
    if (!p) {
      const dest = destinations[name];
      if (!dest) return Promise.reject(new Error(`outbox destination "${name}" is not configured`));
      p = (async (): Promise<Publisher> => {
        if (dest.type === 'kv') {
          const kv = await messaging.keyValue<unknown>(name);
          // a KV bucket stores values: a payload handed on as JSON text is read first
          const value = (p: unknown) => (p instanceof RawJson ? (JSON.parse(p.text) as unknown) : p);
          return (row) => (row.payload === null ? kv.delete(row.subject) : kv.put(row.subject, value(row.payload)));
        }
        const target =
          dest.type === 'queue' ? await messaging.workQueue(name, { subjects: dest.subjects }) : await messaging.eventStream(name, { subjects: dest.subjects });
        return (row, onSettled) => target.publish(row.subject, row.payload, { id: row.id, headers: row.headers, onSettled });
      })();
      p.catch(() => publishers.delete(name));
      publishers.set(name, p);
    }
    return p;
  };
}

export interface PublishOptions {
  publisherFor: (name: string) => Promise<Publisher>;
  destinations: Record<string, OutboxDestination>;
  /** A publish (or getting its publisher) that takes longer counts as failed. */
  timeoutMs: number;
  /**
   * For messaging that does not outlive the process: called before a queue or stream publish, its result is the
   * publish's `onSettled` (the row is marked once its consumers are done, not now). Null: mark at once.
   */
  handOver: ((id: string) => (o: SettleOutcome) => void) | null;
}

export interface PublishOutcome {
  /** Published: to mark now. */
  done: string[];
  /** Published, marked once settled. */
  handedOver: string[];
  /** The first row that failed (the rows after it were not tried). */
  failure?: { id: string; err: Error };
}

/**
 * Publish: the rows in order with the row id as message id; done = the rows before the first failure. Messaging that
 * outlives the process (`handOver` null): queue and stream rows are sent without waiting for each one's
 * acknowledgement (the broker stores them in the order sent; one round trip per batch, not per row), a KV row once
 * the rows before it are acknowledged. Rows sent after a failed one are published again later under their id
 * (the broker drops the duplicate; the revisions recorder orders an item's changes by version).
 */
export async function publishRows(rows: OutboxRecord[], opts: PublishOptions): Promise<PublishOutcome> {
  return opts.handOver ? publishInTurn(rows, opts) : publishTogether(rows, opts);
}

async function publishTogether(rows: OutboxRecord[], opts: PublishOptions): Promise<PublishOutcome> {
  const out: PublishOutcome = { done: [], handedOver: [] };
  let inFlight: { id: string; ack: Promise<void> }[] = [];
  /** Waits for the rows sent so far: false (and the failure kept) when one failed. */
  const drain = async (): Promise<boolean> => {
    const sent = inFlight;
    inFlight = [];
    const acks = await Promise.allSettled(sent.map((x) => x.ack));
    for (let i = 0; i < sent.length; i++) {
      const a = acks[i]!;
      if (a.status === 'rejected') {
        out.failure = { id: sent[i]!.id, err: a.reason as Error };
        return false;
      }
      out.done.push(sent[i]!.id);
    }
    return true;
  };
  for (const row of rows) {
    let publish: Publisher;
    try {
      publish = await withTimeout(opts.publisherFor(row.destination), opts.timeoutMs, 'messaging');
    } catch (err) {
      if (await drain()) out.failure = { id: row.id, err: err as Error };
      return out;
    }
    const kv = opts.destinations[row.destination]!.type === 'kv';
    // a key's value is written after the rows before it, and before the rows after it
    if (kv && !(await drain())) return out;
    const ack = withTimeout(publish(row), opts.timeoutMs, 'publish');
    ack.catch(() => undefined);
    inFlight.push({ id: row.id, ack });
    if (kv && !(await drain())) return out;
  }
  await drain();
  return out;
}

/** In-process messaging: each row handed over in turn (its publish answers at once), stopping at the first failure. */
async function publishInTurn(rows: OutboxRecord[], opts: PublishOptions): Promise<PublishOutcome> {
  const out: PublishOutcome = { done: [], handedOver: [] };
  for (const row of rows) {
    try {
      const publish = await withTimeout(opts.publisherFor(row.destination), opts.timeoutMs, 'messaging');
      const dest = opts.destinations[row.destination]!;
      if (opts.handOver && dest.type !== 'kv') {
        out.handedOver.push(row.id);
        await withTimeout(publish(row, opts.handOver(row.id)), opts.timeoutMs, 'publish');
      } else {
        await withTimeout(publish(row), opts.timeoutMs, 'publish');
        out.done.push(row.id);
      }
    } catch (err) {
      out.failure = { id: row.id, err: err as Error };
      break;
    }
  }
  return out;
}
