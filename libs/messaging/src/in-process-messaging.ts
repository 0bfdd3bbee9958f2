import type { BucketStore } from './bucket-store';
import type { EventStream } from './event-stream';
import { InProcessBucket, InProcessKeyValueMap } from './in-process-key-value-map';
import { InProcessStream } from './in-process-stream';
import type { KeyValueMap, KeyValueOptions } from './key-value-map';
import type { Messaging, StreamOptions } from './messaging';
import { assertName } from './subject-match';
import type { WorkQueue } from './work-queue';

export interface InProcessMessagingOptions {
  /**
   * Durable consumer groups per stream name (e.g. `{ ITEMS: ['revisions'], MAIL: ['mailer'] }`): a message
   * published before its group has a member still waits for that group before it is settled (see
   * `PublishOptions.onSettled`). Groups created by `consume`/`subscribe` count from the moment they exist.
   */
  consumers?: Record<string, readonly string[]>;
  /**
   * Buckets whose entries outlive the process, by bucket name (e.g. the mailer's sent-job ids): loaded from their
   * store when first opened, every put/delete stored before it resolves. Other buckets live in memory only.
   */
  stores?: Record<string, BucketStore>;
}

/**
 * The messaging interfaces in memory, with the same semantics as NATS JetStream (ack-wait redelivery, backoff,
 * dead letters, groups, dedupe, watch). One instance is shared by every service of the one-process topology.
 * No message survives the process (`persistent: false`): publishers learn through `onSettled` when every durable
 * consumer has finished with a message, and keep their own copy until then. Key-value buckets survive it only
 * when given a store (`stores`).
 */
/** What a work queue and an event stream both offer, over their in-process stream. */
const publishing = (s: InProcessStream): Omit<WorkQueue, 'consume'> & Omit<EventStream, 'subscribe'> => ({
  publish: (subject, data, o) => s.publish(subject, data, o),
  deadLetters: (limit) => s.deadLetters(limit),
  replayDeadLetter: (id) => s.replayDeadLetter(id),
});

export function createInProcessMessaging(options: InProcessMessagingOptions = {}): Messaging {
  const streams = new Map<string, InProcessStream>();
  const buckets = new Map<string, Promise<InProcessBucket>>();
  let closed = false;

  const stream = (name: string, retention: 'workqueue' | 'limits', opts: StreamOptions): InProcessStream => {
    if (closed) throw new Error('messaging is closed');
    assertName('stream', name);
    if (!opts?.subjects?.length) throw new Error(`stream ${name} needs subjects`);
    let s = streams.get(name);
    if (!s) {
      s = new InProcessStream(name, retention, [...opts.subjects], opts.maxAgeMs);
      s.declare(options.consumers?.[name] ?? []);
      streams.set(name, s);
    } else if (s.retention !== retention) {
      throw new Error(`stream ${name} already exists with ${s.retention} retention`);
    } else {
      s.subjects = [...new Set([...s.subjects, ...opts.subjects])];
      if (opts.maxAgeMs !== undefined) s.maxAgeMs = opts.maxAgeMs;
    }
    return s;
  };

  return {
    persistent: false,
    async workQueue(name, opts): Promise<WorkQueue> {
      const s = stream(name, 'workqueue', opts);
      return { ...publishing(s), consume: (o) => s.consume(o) };
    },
    async eventStream(name, opts): Promise<EventStream> {
      const s = stream(name, 'limits', opts);
      return { ...publishing(s), subscribe: (o) => s.consume(o) };
    },
    async keyValue<T>(bucket: string, o: KeyValueOptions = {}): Promise<KeyValueMap<T>> {
      if (closed) throw new Error('messaging is closed');
      assertName('bucket', bucket);
      let opened = buckets.get(bucket);
      if (!opened) {
        const b = new InProcessBucket(options.stores?.[bucket], o.maxAgeMs);
        opened = b.load().then(() => b);
        buckets.set(bucket, opened);
        opened.catch(() => buckets.delete(bucket)); // a store that failed to load is tried again by the next caller
      }
      const b = await opened;
      if (o.maxAgeMs !== undefined) b.maxAgeMs = o.maxAgeMs;
      return new InProcessKeyValueMap<T>(b, () => closed);
    },
    async health() {
      return closed ? { status: 'error', reason: 'messaging is closed' } : { status: 'ok' };
    },
    async close() {
      closed = true;
      for (const s of streams.values()) s.close();
    },
  };
}
