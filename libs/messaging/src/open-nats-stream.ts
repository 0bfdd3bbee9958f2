import { RetentionPolicy, StorageType, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import { headers as natsHeaders, nanos } from '@nats-io/transport-node';
import type { ConsumeOptions } from './consume-options';
import type { DeadLetter } from './dead-letter';
import { messageText } from './message-text';
import type { StreamOptions } from './messaging';
import { natsConsume, type NatsConsumeContext } from './nats-consumer';
import { NatsDeadLetters } from './nats-dead-letters';
import type { NatsNames } from './nats-names';
import { ensureStream } from './nats-streams';
import { assertPublishSubject, errorMessage } from './subject-match';
import type { Subscription } from './subscription';
import { withTimeout } from './with-timeout';
import type { PublishOptions } from './work-queue';

const duplicateWindowNs = nanos(2 * 60_000);

/** What a NATS messaging instance shares with the streams it opens. */
export interface NatsStreamContext {
  js: JetStreamClient;
  jsm: () => Promise<JetStreamManager>;
  names: NatsNames;
  timeoutMs: number;
  /** Copies of each stream in a cluster; undefined: the server's default. */
  replicas?: number;
  /** Registers a subscription (stopped on close); returns its removal. */
  track: (s: Subscription) => () => void;
  /** True once the messaging is closing or its connection is closed. */
  closed: () => boolean;
}

interface NatsStream {
  publish: (subject: string, data: unknown, o: PublishOptions) => Promise<void>;
  consume: <T>(co: ConsumeOptions<T>) => Promise<Subscription>;
  deadLetters: (limit?: number) => Promise<DeadLetter[]>;
  replayDeadLetter: (id: string) => Promise<boolean>;
}

/** Ensures the stream (and its dead letters) with this retention, and answers its publish/consume/dead letters. */
export async function openNatsStream(c: NatsStreamContext, name: string, retention: RetentionPolicy, so: StreamOptions): Promise<NatsStream> {
  if (!so?.subjects?.length) throw new Error(`stream ${name} needs subjects`);
  const m = await c.jsm();
  const stream = c.names.name('stream', name);
  await ensureStream(m, {
    name: stream,
    subjects: so.subjects.map((s) => c.names.subject(s)),
    retention,
    storage: StorageType.File,
    duplicate_window: duplicateWindowNs,
    ...(c.replicas !== undefined && { num_replicas: c.replicas }),
    ...(retention === RetentionPolicy.Limits && so.maxAgeMs ? { max_age: nanos(so.maxAgeMs) } : {}),
  });
  const deadLetters = new NatsDeadLetters(c.js, m, c.names, name, c.timeoutMs, c.replicas);
  await deadLetters.ensure();
  const ctx: NatsConsumeContext = { js: c.js, jsm: m, names: c.names, stream, deadLetters };
  const consume = async <T>(co: ConsumeOptions<T>): Promise<Subscription> => {
    const sub = await natsConsume(ctx, co);
    const untrack = c.track(sub);
    return { stop: () => sub.stop().finally(untrack), stats: sub.stats };
  };
  return {
    publish: natsPublisher(c, name, so.subjects),
    consume,
    deadLetters: (limit?: number) => deadLetters.list(limit),
    replayDeadLetter: (id: string) => deadLetters.replay(id),
  };
}

/** Publishes with the message id as JetStream's `msgID` (deduplicated within the window); bounded by the timeout. */
function natsPublisher(c: NatsStreamContext, name: string, subjects: string[]) {
  return async (subject: string, data: unknown, o: PublishOptions): Promise<void> => {
    assertPublishSubject(subject);
    if (!o || typeof o.id !== 'string' || o.id === '') throw new Error('publish needs a message id');
    const hdrs = natsHeaders();
    for (const [k, v] of Object.entries(o.headers ?? {})) hdrs.set(k, v);
    const payload = messageText(data);
    try {
      await withTimeout(
        c.js.publish(c.names.subject(subject), payload, { msgID: o.id, headers: hdrs, timeout: c.timeoutMs }),
        c.timeoutMs + 1000,
        'publish timed out',
      );
    } catch (err) {
      const hint = subjects.length ? ` (stream ${name}: ${subjects.join(', ')})` : '';
      throw new Error(`publish to ${subject} failed: ${errorMessage(err)}${hint}`, { cause: err });
    }
  };
}
