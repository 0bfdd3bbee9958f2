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
          return (row) => (row.payload === null ? kv.delete(row.subject) : kv.put(row.subject, row.payload));
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

/** Publish: the rows in order with the row id as message id, stopping at the first failure. */
export async function publishRows(rows: OutboxRecord[], opts: PublishOptions): Promise<PublishOutcome> {
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
