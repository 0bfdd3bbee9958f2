import { jetstream, jetstreamManager, RetentionPolicy, type JetStreamManager } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import type { EventStream } from './event-stream';
import type { KeyValueMap, KeyValueOptions } from './key-value-map';
import type { Health, Messaging } from './messaging';
import { connectNats } from './nats-connect';
import { alignBucket, NatsKeyValueMap } from './nats-key-value-map';
import { NatsNames } from './nats-names';
import { openNatsStream, type NatsStreamContext } from './open-nats-stream';
import { errorMessage } from './subject-match';
import type { Subscription } from './subscription';
import { withTimeout } from './with-timeout';
import type { WorkQueue } from './work-queue';

export interface NatsMessagingOptions {
  /** One URL or a comma-separated list. */
  servers: string;
  /** Connection name shown by the server (e.g. the service name). */
  name: string;
  /** Default 5000. */
  connectTimeoutMs?: number;
  /** Prepended to stream/bucket names and (as a first token) to subjects; default ''. */
  prefix?: string;
  /** Addition: a publish or KV operation rejects after this long (default 5000). */
  requestTimeoutMs?: number;
  /**
   * Copies of each stream and bucket in a JetStream cluster (a publish is acknowledged once most of them stored
   * it); existing ones are scaled to it. Unset: the server's default (1).
   */
  replicas?: number;
  /** Authentication: user + password, a token, or a credentials file (JWT + nkey seed). */
  user?: string;
  password?: string;
  token?: string;
  credsFile?: string;
  /** TLS: the server's CA and/or a client certificate (mutual TLS). Set: only TLS connections are made. */
  tls?: { caFile?: string; certFile?: string; keyFile?: string };
}

export interface NatsMessaging extends Messaging {
  /** Addition: the underlying connection (for diagnostics). */
  readonly connection: NatsConnection;
  /** Addition: deletes every stream and bucket under this instance's prefix (tests); refuses with no prefix. */
  destroy(): Promise<void>;
}

/** Messaging on NATS JetStream. Reconnects forever in the background; operations reject within a bounded time. */
export async function connectNatsMessaging(opts: NatsMessagingOptions): Promise<NatsMessaging> {
  const names = new NatsNames(opts.prefix ?? '');
  const timeoutMs = opts.requestTimeoutMs ?? 5000;
  const nc = await connectNats(opts, timeoutMs);
  const js = jetstream(nc, { timeout: timeoutMs });
  const jsm = lazyManager(nc, timeoutMs);
  const isConnected = watchConnected(nc);
  const subscriptions = new Set<Subscription>();
  const track = (s: Subscription): (() => void) => {
    subscriptions.add(s);
    return () => subscriptions.delete(s);
  };
  let kvm: Kvm | undefined;
  let closing: Promise<void> | undefined;
  const c: NatsStreamContext = {
    js,
    jsm,
    names,
    timeoutMs,
    replicas: opts.replicas,
    track,
    closed: () => closing !== undefined || nc.isClosed(),
  };

  return {
    connection: nc,
    persistent: true,

    async workQueue(name, so): Promise<WorkQueue> {
      const s = await openNatsStream(c, name, RetentionPolicy.Workqueue, so);
      return { publish: s.publish, consume: s.consume, deadLetters: s.deadLetters, replayDeadLetter: s.replayDeadLetter };
    },

    async eventStream(name, so): Promise<EventStream> {
      const s = await openNatsStream(c, name, RetentionPolicy.Limits, so);
      return { publish: s.publish, subscribe: s.consume, deadLetters: s.deadLetters, replayDeadLetter: s.replayDeadLetter };
    },

    keyValue<T>(bucket: string, o: KeyValueOptions = {}): Promise<KeyValueMap<T>> {
      kvm ??= new Kvm(js);
      return openKeyValue<T>(c, kvm, bucket, o);
    },

    health: () => natsHealth(nc, isConnected(), jsm),

    close() {
      return (closing ??= closeNats(nc, subscriptions, timeoutMs));
    },

    async destroy() {
      if (!opts.prefix) throw new Error('destroy() needs a prefix');
      const m = await jsm();
      const doomed: string[] = [];
      for await (const s of m.streams.list()) if (names.owns(s.config.name)) doomed.push(s.config.name);
      await Promise.all(doomed.map((n) => m.streams.delete(n).catch(() => false)));
    },
  };
}

/** The JetStream manager, created on first use (again after a failure), bounded by the request timeout. */
function lazyManager(nc: NatsConnection, timeoutMs: number): () => Promise<JetStreamManager> {
  let jsmPromise: Promise<JetStreamManager> | undefined;
  return () =>
    (jsmPromise ??= withTimeout(jetstreamManager(nc, { timeout: timeoutMs }), timeoutMs + 1000, 'JetStream unavailable').catch((err) => {
      jsmPromise = undefined;
      throw err;
    }));
}

/** Follows the connection's status: false from a disconnect until the reconnect. */
function watchConnected(nc: NatsConnection): () => boolean {
  let connected = true;
  void (async () => {
    for await (const s of nc.status()) {
      if (s.type === 'disconnect') connected = false;
      else if (s.type === 'reconnect') connected = true;
    }
  })().catch(() => undefined);
  return () => connected;
}

/** A key-value bucket (history 1; entries expire after maxAgeMs when given). */
async function openKeyValue<T>(c: NatsStreamContext, kvm: Kvm, bucket: string, o: KeyValueOptions): Promise<KeyValueMap<T>> {
  const kv = await withTimeout(
    kvm.create(c.names.name('bucket', bucket), {
      history: 1,
      ...(o.maxAgeMs !== undefined && { ttl: o.maxAgeMs }),
      ...(c.replicas !== undefined && { replicas: c.replicas }),
    }),
    c.timeoutMs + 1000,
    'KV unavailable',
  );
  if (o.maxAgeMs !== undefined || c.replicas !== undefined)
    await withTimeout(alignBucket(kv, await c.jsm(), { maxAgeMs: o.maxAgeMs, replicas: c.replicas }), c.timeoutMs + 1000, 'KV unavailable');
  return new NatsKeyValueMap<T>(kv, c.track, c.closed);
}

async function natsHealth(nc: NatsConnection, connected: boolean, jsm: () => Promise<JetStreamManager>): Promise<Health> {
  if (nc.isClosed()) return { status: 'error', reason: 'connection closed' };
  if (!connected) return { status: 'error', reason: 'disconnected from NATS (reconnecting)' };
  try {
    await withTimeout((await jsm()).getAccountInfo(), 2000, 'JetStream did not answer within 2 s');
    return { status: 'ok' };
  } catch (err) {
    return { status: 'error', reason: errorMessage(err) };
  }
}

/** Stops every subscription, then drains the connection (closes it when the drain times out). */
async function closeNats(nc: NatsConnection, subscriptions: Set<Subscription>, timeoutMs: number): Promise<void> {
  await Promise.all([...subscriptions].map((s) => s.stop().catch(() => undefined)));
  if (!nc.isClosed()) await withTimeout(nc.drain(), timeoutMs, 'drain timed out').catch(() => nc.close());
}
