import {
  jetstream,
  jetstreamManager,
  RetentionPolicy,
  StorageType,
  type JetStreamManager,
} from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import { readFileSync } from 'node:fs';
import { connect, credsAuthenticator, headers as natsHeaders, nanos, type NatsConnection } from '@nats-io/transport-node';
import type { ConsumeOptions } from './consume-options';
import type { EventStream } from './event-stream';
import type { KeyValueMap, KeyValueOptions } from './key-value-map';
import type { Messaging, StreamOptions } from './messaging';
import { natsConsume, type NatsConsumeContext } from './nats-consumer';
import { NatsDeadLetters } from './nats-dead-letters';
import { alignMaxAge, NatsKeyValueMap } from './nats-key-value-map';
import { NatsNames } from './nats-names';
import { assertSupportedServer, noJetStream } from './nats-server-version';
import { ensureStream } from './nats-streams';
import { assertPublishSubject, errorMessage } from './subject-match';
import type { Subscription } from './subscription';
import { withTimeout } from './with-timeout';
import type { PublishOptions, WorkQueue } from './work-queue';

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

const duplicateWindowNs = nanos(2 * 60_000);

/** Messaging on NATS JetStream. Reconnects forever in the background; operations reject within a bounded time. */
export async function connectNatsMessaging(opts: NatsMessagingOptions): Promise<NatsMessaging> {
  const names = new NatsNames(opts.prefix ?? '');
  const timeoutMs = opts.requestTimeoutMs ?? 5000;
  const nc = await connect({
    servers: opts.servers
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    name: opts.name,
    user: opts.user,
    pass: opts.password,
    token: opts.token,
    ...(opts.credsFile && { authenticator: credsAuthenticator(() => readFileSync(opts.credsFile!)) }),
    ...(opts.tls && { tls: opts.tls }),
    timeout: opts.connectTimeoutMs ?? 5000,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 1000,
    pingInterval: 20_000,
  });
  try {
    assertSupportedServer(nc.info, opts.servers);
    // 2.9 leaves `jetstream` out of its INFO when it is off: ask. No responders = JetStream is not running.
    if (nc.info?.jetstream !== true)
      await jetstreamManager(nc, { timeout: timeoutMs }).catch((err: Error) => {
        if (/no responders|503|not enabled/i.test(`${err.message} ${String(err.cause ?? '')}`))
          throw noJetStream(nc.info?.version ?? 'unknown', opts.servers);
      });
  } catch (err) {
    await nc.close();
    throw err;
  }
  const js = jetstream(nc, { timeout: timeoutMs });
  let jsmPromise: Promise<JetStreamManager> | undefined;
  const jsm = (): Promise<JetStreamManager> =>
    (jsmPromise ??= withTimeout(
      jetstreamManager(nc, { timeout: timeoutMs }),
      timeoutMs + 1000,
      'JetStream unavailable',
    ).catch((err) => {
      jsmPromise = undefined;
      throw err;
    }));

  let connected = true;
  void (async () => {
    for await (const s of nc.status()) {
      if (s.type === 'disconnect') connected = false;
      else if (s.type === 'reconnect') connected = true;
    }
  })().catch(() => undefined);

  const subscriptions = new Set<Subscription>();
  const track = (s: Subscription): (() => void) => {
    subscriptions.add(s);
    return () => subscriptions.delete(s);
  };

  const publisher =
    (name: string, subjects: string[]) =>
    async (subject: string, data: unknown, o: PublishOptions): Promise<void> => {
      assertPublishSubject(subject);
      if (!o || typeof o.id !== 'string' || o.id === '') throw new Error('publish needs a message id');
      const hdrs = natsHeaders();
      for (const [k, v] of Object.entries(o.headers ?? {})) hdrs.set(k, v);
      const payload = JSON.stringify(data === undefined ? null : data);
      try {
        await withTimeout(
          js.publish(names.subject(subject), payload, { msgID: o.id, headers: hdrs, timeout: timeoutMs }),
          timeoutMs + 1000,
          'publish timed out',
        );
      } catch (err) {
        const hint = subjects.length ? ` (stream ${name}: ${subjects.join(', ')})` : '';
        throw new Error(`publish to ${subject} failed: ${errorMessage(err)}${hint}`, { cause: err });
      }
    };

  const open = async (name: string, retention: RetentionPolicy, so: StreamOptions) => {
    if (!so?.subjects?.length) throw new Error(`stream ${name} needs subjects`);
    const m = await jsm();
    const stream = names.name('stream', name);
    await ensureStream(m, {
      name: stream,
      subjects: so.subjects.map((s) => names.subject(s)),
      retention,
      storage: StorageType.File,
      duplicate_window: duplicateWindowNs,
      ...(retention === RetentionPolicy.Limits && so.maxAgeMs ? { max_age: nanos(so.maxAgeMs) } : {}),
    });
    const deadLetters = new NatsDeadLetters(js, m, names, name, timeoutMs);
    await deadLetters.ensure();
    const ctx: NatsConsumeContext = { js, jsm: m, names, stream, deadLetters };
    const consume = async <T>(co: ConsumeOptions<T>): Promise<Subscription> => {
      const sub = await natsConsume(ctx, co);
      const untrack = track(sub);
      return { stop: () => sub.stop().finally(untrack), stats: sub.stats };
    };
    return {
      publish: publisher(name, so.subjects),
      consume,
      deadLetters: (limit?: number) => deadLetters.list(limit),
      replayDeadLetter: (id: string) => deadLetters.replay(id),
    };
  };

  let kvm: Kvm | undefined;
  let closing: Promise<void> | undefined;

  return {
    connection: nc,
    persistent: true,

    async workQueue(name, so): Promise<WorkQueue> {
      const s = await open(name, RetentionPolicy.Workqueue, so);
      return { publish: s.publish, consume: s.consume, deadLetters: s.deadLetters, replayDeadLetter: s.replayDeadLetter };
    },

    async eventStream(name, so): Promise<EventStream> {
      const s = await open(name, RetentionPolicy.Limits, so);
      return { publish: s.publish, subscribe: s.consume, deadLetters: s.deadLetters, replayDeadLetter: s.replayDeadLetter };
    },

    async keyValue<T>(bucket: string, o: KeyValueOptions = {}): Promise<KeyValueMap<T>> {
      kvm ??= new Kvm(js);
      const kv = await withTimeout(
        kvm.create(names.name('bucket', bucket), { history: 1, ...(o.maxAgeMs !== undefined && { ttl: o.maxAgeMs }) }),
        timeoutMs + 1000,
        'KV unavailable',
      );
      if (o.maxAgeMs !== undefined) await withTimeout(alignMaxAge(kv, await jsm(), o.maxAgeMs), timeoutMs + 1000, 'KV unavailable');
      return new NatsKeyValueMap<T>(kv, track);
    },

    async health() {
      if (nc.isClosed()) return { status: 'error', reason: 'connection closed' };
      if (!connected) return { status: 'error', reason: 'disconnected from NATS (reconnecting)' };
      try {
        await withTimeout((await jsm()).getAccountInfo(), 2000, 'JetStream did not answer within 2 s');
        return { status: 'ok' };
      } catch (err) {
        return { status: 'error', reason: errorMessage(err) };
      }
    },

    close() {
      return (closing ??= (async () => {
        await Promise.all([...subscriptions].map((s) => s.stop().catch(() => undefined)));
        if (!nc.isClosed())
          await withTimeout(nc.drain(), timeoutMs, 'drain timed out').catch(() => nc.close());
      })());
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
